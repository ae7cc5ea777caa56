import { commandHandlerSpecification, type FixedClockAndIds } from '@ledger/test-support';
import { emptyFold, type EventCodec, type EventOrigin, type PipelineEnvironment } from '../command-pipeline';
import { WrongExpectedVersionError } from '../event-store.port';
import { chainEvents } from '../hash-chain';
import { StreamFoldCache } from '../stream-fold-cache';
import { decideAcrossStreams } from '../use-case-pipeline';
import { InMemoryEventStore } from './in-memory-event-store';

/**
 * The given/when/then specification of test-support on this store, with a use case of the shape the
 * authorization path has: a decision on one stream that opens a second stream and checks a third
 * stream's version, as one atomic write (decideAcrossStreams). Here, and not in test-support, because
 * test-support imports no lib; what it is checked on is the store it is meant for.
 */
type TabEvent = { readonly type: 'Charged'; readonly data: { readonly amount: number; readonly receipt: string } } | { readonly type: 'ReceiptOpened'; readonly data: { readonly amount: number } };
type Tab = { readonly total: number };
type TabCommand = { readonly tab: string; readonly amount: number };

/** A domain refusal as the domain's errors look: a `kind`. */
class OverTheLimit extends Error {
  readonly kind = 'conflict';
  constructor(readonly total: number) {
    super(`a charge would take the tab to ${total}, over 100`);
  }
}

const tab = {
  initialState: (): Tab => ({ total: 0 }),
  evolve: (state: Tab, event: TabEvent): Tab => (event.type === 'Charged' ? { total: state.total + event.data.amount } : state),
};
const codec: EventCodec<TabEvent> = {
  encode: (event, metadata) => ({ type: event.type, schemaVersion: 1, data: event.data, metadata }),
  decode: (recorded) => ({ type: recorded.type, data: recorded.data }) as TabEvent,
};
const origin: EventOrigin = { programToken: 'program', correlationId: 'correlation', causationId: null };

/** Charges a tab and opens the charge's receipt stream in the same write, as long as the menu is unchanged. */
class ChargeHandler {
  constructor(private readonly env: PipelineEnvironment) {}

  async execute({ tab: tabToken, amount }: TabCommand): Promise<string> {
    const receipt = `receipt-${this.env.newId()}`;
    const outcome = await decideAcrossStreams(this.env, origin, `tab-${tabToken}`, async (reader) => {
      const [charged, menu] = await Promise.all([reader.fold(tab, `tab-${tabToken}`), reader.fold(tab, 'menu')]);
      if (charged.state.total + amount > 100) throw new OverTheLimit(charged.state.total + amount);
      return {
        now: this.env.now(),
        result: receipt,
        streams: [
          { streamId: `tab-${tabToken}`, folder: tab, fold: charged, events: [{ type: 'Charged', data: { amount, receipt } }] },
          // A stream opened under a token just made is not read: it is new, and the write refuses it otherwise.
          { streamId: receipt, folder: tab, fold: emptyFold(tab), events: [{ type: 'ReceiptOpened', data: { amount } }], mustBeNew: true },
          { streamId: 'menu', folder: tab, fold: menu, events: [] },
        ],
      };
    });
    return outcome.result;
  }
}

const charges = commandHandlerSpecification({
  environment: ({ now, newId }: FixedClockAndIds): PipelineEnvironment => ({ store: new InMemoryEventStore({ now }), codec: codec as EventCodec<unknown>, now, newId, folds: new StreamFoldCache() }),
  seal: (streamId, events) => chainEvents(streamId, null, events),
  handler: (env) => new ChargeHandler(env),
});
const menu = { menu: [{ type: 'Charged', data: { amount: 0, receipt: 'menu' } }] };

describe('commandHandlerSpecification on the in-memory store', () => {
  it('specifies a decision that opens a second stream and checks a third in one atomic write: both written streams, in one commit', async () => {
    const receipt = `receipt-${charges.id(1)}`;
    const { result, writes, recorded } = await charges
      .given({ ...menu, 'tab-1': [{ type: 'Charged', data: { amount: 60, receipt: 'receipt-old' } }] })
      .when((handler) => handler.execute({ tab: '1', amount: 40 }))
      .then({ 'tab-1': [{ type: 'Charged', data: { amount: 40, receipt } }], [receipt]: [{ type: 'ReceiptOpened', data: { amount: 40 } }] });

    expect(result).toBe(receipt);
    expect(writes).toEqual([['tab-1', receipt]]);
    // Metadata is the pipeline's, on the scenario's clock and ids: the handler took id(1), its events the next ones.
    expect(recorded.map((event) => [event.metadata.eventId, event.metadata.occurredAt])).toEqual([
      [charges.id(2), charges.now.toISOString()],
      [charges.id(3), charges.now.toISOString()],
    ]);
  });

  it('specifies a domain refusal, and a write refused on a stream that had to be new: the error, and nothing appended to any stream', async () => {
    await charges
      .given({ ...menu, 'tab-1': [{ type: 'Charged', data: { amount: 60, receipt: 'receipt-old' } }] })
      .when((handler) => handler.execute({ tab: '1', amount: 41 }))
      .thenThrows(OverTheLimit, { total: 101 });
    const taken = `receipt-${charges.id(1)}`;
    await charges
      .given({ ...menu, [taken]: [{ type: 'ReceiptOpened', data: { amount: 1 } }] })
      .when((handler) => handler.execute({ tab: '1', amount: 1 }))
      .thenThrows(WrongExpectedVersionError, { streamId: taken, actual: 0 });
  });

  it('fails a scenario whose events differ in a stream, in number, or in the streams written', async () => {
    const charge = charges.given(menu).when((handler) => handler.execute({ tab: '1', amount: 5 }));
    const receipt = `receipt-${charges.id(1)}`;
    const charged = { type: 'Charged', data: { amount: 5, receipt } };

    await expect(charge.then({ 'tab-1': [{ type: 'Charged', data: { amount: 6, receipt } }], [receipt]: [{ type: 'ReceiptOpened', data: { amount: 5 } }] })).rejects.toThrow();
    await expect(charge.then({ 'tab-1': [charged, charged], [receipt]: [{ type: 'ReceiptOpened', data: { amount: 5 } }] })).rejects.toThrow();
    await expect(charge.then({ 'tab-1': [charged] })).rejects.toThrow();
    await expect(charge.thenThrows(OverTheLimit)).rejects.toThrow(/expected the command to throw OverTheLimit/);
  });

  it('fails a scenario that expected events when the command threw, or the wrong error', async () => {
    const refused = charges.given(menu).when((handler) => handler.execute({ tab: '1', amount: 500 }));

    await expect(refused.then({})).rejects.toThrow(/expected the command to append events, but it threw OverTheLimit/);
    await expect(refused.thenThrows(WrongExpectedVersionError)).rejects.toThrow();
    await expect(refused.thenThrows(OverTheLimit, { total: 499 })).rejects.toThrow();
  });
});

it('says how to end a scenario that is awaited without then or thenThrows', async () => {
  const scenario: unknown = charges.when((handler) => handler.execute({ tab: '1', amount: 1 }));

  await expect((async () => scenario)()).rejects.toThrow(/end it with .then\(expected events\) or .thenThrows\(ErrorClass\)/);
});
