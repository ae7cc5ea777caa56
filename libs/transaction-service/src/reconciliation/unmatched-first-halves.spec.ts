import type { LedgerEvent } from '@ledger/contracts';
import type { RecordedEvent } from '@ledger/event-store';
import { DecodedEvent, UnmatchedFirstHalves } from './unmatched-first-halves';

let position = 0n;
function at(type: string, streamVersion: number, data: Record<string, unknown>): DecodedEvent {
  position += 1n;
  const recorded = { type, streamVersion, data, position: { commit: position, prepare: position } } as unknown as RecordedEvent;
  return { recorded, event: { type, data } as unknown as LedgerEvent };
}
const decision = (transactionToken: string) => at('CardAuthorizationApproved', 3, { transactionToken });
const record = (transactionToken: string) => at('TransactionAuthorized', 0, { transactionToken });
const voided = (transactionToken: string, version: number) => at('TransactionVoided', version, { transactionToken });
const adjusted = (transactionToken: string, transactionVersion: number) => at('CardSpendAdjusted', 7, { transactionToken, transactionVersion });
const tokens = (events: readonly DecodedEvent[]) => events.map(({ event }) => (event.data as { transactionToken: string }).transactionToken);

describe('UnmatchedFirstHalves', () => {
  it('given pairs complete within a batch, in either order, when taken, then nothing is open or overdue', () => {
    const halves = new UnmatchedFirstHalves();
    const batch = [decision('a'), record('a'), record('b'), decision('b')];
    expect(halves.take(batch, null)).toEqual([]);
    expect(halves.size).toBe(0);
    expect(halves.resumeFrom(batch[3].recorded.position)).toEqual(batch[3].recorded.position);
  });

  it('given a pair split by a batch boundary, when the next batch holds the second half, then it is never overdue', () => {
    const halves = new UnmatchedFirstHalves();
    const first = [record('x'), decision('a')];
    expect(halves.take(first, null)).toEqual([]);
    expect(halves.size).toBe(1);
    // The checkpoint stays just before the open first half, so a restart reads it again.
    expect(halves.resumeFrom(first[1].recorded.position)).toEqual(first[0].recorded.position);

    const second = [record('a'), decision('b'), record('b')];
    expect(halves.take(second, first[1].recorded.position)).toEqual([]);
    expect(halves.size).toBe(0);
  });

  it('given a first half still unmatched after the next batch, when that batch is taken, then it is overdue once', () => {
    const halves = new UnmatchedFirstHalves();
    const first = [decision('lost')];
    expect(halves.take(first, null)).toEqual([]);
    expect(halves.resumeFrom(first[0].recorded.position)).toBeNull();
    expect(tokens(halves.take([decision('c'), record('c')], first[0].recorded.position))).toEqual(['lost']);
    expect(halves.size).toBe(0);
    expect(halves.take([record('d')], null)).toEqual([]);
  });

  it('keys adjustments by transaction version: a later adjustment does not answer an earlier change', () => {
    const halves = new UnmatchedFirstHalves();
    halves.take([voided('t', 1)], null);
    expect(tokens(halves.take([adjusted('t', 2)], null))).toEqual(['t']);
    halves.take([voided('u', 1)], null);
    expect(halves.take([adjusted('u', 1)], null)).toEqual([]);
  });

  it('matches second halves found past the last batch, and drains the rest oldest first', () => {
    const halves = new UnmatchedFirstHalves();
    halves.take([decision('a'), decision('b'), decision('c')], null);
    expect(tokens([halves.newest() as DecodedEvent])).toEqual(['c']);
    halves.match([record('b'), record('zzz')]);
    expect(tokens(halves.drain())).toEqual(['a', 'c']);
    expect(halves.size).toBe(0);
    expect(halves.newest()).toBeUndefined();
  });
});
