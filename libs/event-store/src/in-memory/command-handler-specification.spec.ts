import { commandHandlerSpecification, type FixedClockAndIds } from '@ledger/test-support';
import { commandHandler, type EventCodec, type EventOrigin, type PipelineEnvironment } from '../command-pipeline';
import type { Decider } from '../decider';
import { WrongExpectedVersionError } from '../event-store.port';
import { chainEvents } from '../hash-chain';
import { StreamFoldCache } from '../stream-fold-cache';
import { InMemoryEventStore } from './in-memory-event-store';

/**
 * The given/when/then specification of test-support on this store, with a handler of the shape the
 * authorization path has: a decision on one stream that opens a second stream in the same atomic
 * write and checks a third stream's version. Here, and not in test-support, because test-support
 * imports no lib; what it is checked on is the store it is meant for.
 */
type TabCommand = { readonly type: 'Charge'; readonly tab: string; readonly amount: number; readonly receipt: string };
type TabEvent = { readonly type: 'Charged'; readonly data: { readonly amount: number; readonly receipt: string } } | { readonly type: 'ReceiptOpened'; readonly data: { readonly amount: number } };
type Tab = { readonly total: number };

class OverTheLimit extends Error {
  constructor(readonly total: number) {
    super(`a charge would take the tab to ${total}, over 100`);
  }
}

const tabs: Decider<TabCommand, TabEvent, Tab> = {
  initialState: () => ({ total: 0 }),
  decide: (command, tab) => {
    if (tab.total + command.amount > 100) throw new OverTheLimit(tab.total + command.amount);
    return [{ type: 'Charged', data: { amount: command.amount, receipt: command.receipt } }];
  },
  evolve: (tab, event) => (event.type === 'Charged' ? { total: tab.total + event.data.amount } : tab),
};
const codec: EventCodec<TabEvent> = {
  encode: (event, metadata) => ({ type: event.type, schemaVersion: 1, data: event.data, metadata }),
  decode: (recorded) => ({ type: recorded.type, data: recorded.data }) as TabEvent,
};
const origin: EventOrigin = { programToken: 'program', correlationId: 'correlation', causationId: null };

/** Charges a tab, opening the charge's receipt stream in the same write, if the menu has not changed since it was read. */
class ChargeHandler {
  constructor(private readonly env: PipelineEnvironment) {}

  async execute(command: TabCommand, menuVersion: number): Promise<string> {
    const receipt = `receipt-${this.env.newId()}`;
    await commandHandler(this.env, tabs, `tab-${command.tab}`).handle({ ...command, receipt }, origin, {
      opens: (decided) => ({ streamId: receipt, events: decided.map((event) => ({ type: 'ReceiptOpened', data: { amount: event.data.amount } })) }),
      guards: [{ streamId: 'menu', version: menuVersion }],
    });
    return receipt;
  }
}

const charges = commandHandlerSpecification({
  environment: ({ now, newId }: FixedClockAndIds): PipelineEnvironment => ({ store: new InMemoryEventStore({ now }), codec: codec as EventCodec<unknown>, now, newId, folds: new StreamFoldCache() }),
  seal: (streamId, events) => chainEvents(streamId, null, events),
  handler: (env) => new ChargeHandler(env),
});
const menu = { menu: [{ type: 'Charged', data: { amount: 0, receipt: 'menu' } }] };

describe('commandHandlerSpecification on the in-memory store', () => {
  it('specifies a decision that opens a second stream in one atomic write: both streams, in one commit', async () => {
    const receipt = `receipt-${charges.id(1)}`;
    const { result, writes, recorded } = await charges
      .given({ ...menu, 'tab-1': [{ type: 'Charged', data: { amount: 60, receipt: 'receipt-old' } }] })
      .when((handler) => handler.execute({ type: 'Charge', tab: '1', amount: 40, receipt: '' }, 0))
      .then({ 'tab-1': [{ type: 'Charged', data: { amount: 40, receipt } }], [receipt]: [{ type: 'ReceiptOpened', data: { amount: 40 } }] });

    expect(result).toBe(receipt);
    expect(writes).toEqual([['tab-1', receipt]]);
    // Metadata is the pipeline's, on the scenario's clock and ids: the handler took id(1), its events the next ones.
    expect(recorded.map((event) => [event.metadata.eventId, event.metadata.occurredAt])).toEqual([
      [charges.id(2), charges.now.toISOString()],
      [charges.id(3), charges.now.toISOString()],
    ]);
  });

  it('specifies a domain refusal and a refused guard: the error, and nothing appended to any stream', async () => {
    await charges
      .given({ ...menu, 'tab-1': [{ type: 'Charged', data: { amount: 60, receipt: 'receipt-old' } }] })
      .when((handler) => handler.execute({ type: 'Charge', tab: '1', amount: 41, receipt: '' }, 0))
      .thenThrows(OverTheLimit, { total: 101 });
    await charges
      .given(menu)
      .when((handler) => handler.execute({ type: 'Charge', tab: '1', amount: 1, receipt: '' }, 3))
      .thenThrows(WrongExpectedVersionError, { streamId: 'menu', actual: 0 });
  });

  it('fails a scenario whose events differ in a stream, in number, or in the streams written', async () => {
    const charge = charges.given(menu).when((handler) => handler.execute({ type: 'Charge', tab: '1', amount: 5, receipt: '' }, 0));
    const receipt = `receipt-${charges.id(1)}`;
    const charged = { type: 'Charged', data: { amount: 5, receipt } };

    await expect(charge.then({ 'tab-1': [{ type: 'Charged', data: { amount: 6, receipt } }], [receipt]: [{ type: 'ReceiptOpened', data: { amount: 5 } }] })).rejects.toThrow();
    await expect(charge.then({ 'tab-1': [charged, charged], [receipt]: [{ type: 'ReceiptOpened', data: { amount: 5 } }] })).rejects.toThrow();
    await expect(charge.then({ 'tab-1': [charged] })).rejects.toThrow();
    await expect(charge.thenThrows(OverTheLimit)).rejects.toThrow(/expected the command to throw OverTheLimit/);
  });

  it('fails a scenario that expected events when the command threw, or the wrong error', async () => {
    const refused = charges.given(menu).when((handler) => handler.execute({ type: 'Charge', tab: '1', amount: 500, receipt: '' }, 0));

    await expect(refused.then({})).rejects.toThrow(/expected the command to append events, but it threw OverTheLimit/);
    await expect(refused.thenThrows(WrongExpectedVersionError)).rejects.toThrow();
    await expect(refused.thenThrows(OverTheLimit, { total: 499 })).rejects.toThrow();
  });
});

it('says how to end a scenario that is awaited without then or thenThrows', async () => {
  const scenario: unknown = charges.when((handler) => handler.execute({ type: 'Charge', tab: '1', amount: 1, receipt: '' }, -1));

  await expect((async () => scenario)()).rejects.toThrow(/end it with .then\(expected events\) or .thenThrows\(ErrorClass\)/);
});
