import type { GlobalPosition, RecordedEvent } from '../event-store.port';
import { RecentEvents } from './recent-events';

const at = (n: number): GlobalPosition => ({ commit: BigInt(n), prepare: BigInt(n) });
const event = (n: number) => ({ type: 'E', streamId: `s-${n}`, streamVersion: 0, data: { n }, position: at(n) }) as unknown as RecordedEvent;
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => event(from + i));
const numbers = (events: readonly RecordedEvent[] | null) => events?.map((e) => (e.data as { n: number }).n) ?? null;

describe('RecentEvents', () => {
  it('given a read, when another reader asks from any position inside it, then it answers from memory', () => {
    const recent = new RecentEvents(100);
    recent.add(at(0), range(1, 10));
    expect(numbers(recent.after(at(0), 3))).toEqual([1, 2, 3]);
    expect(numbers(recent.after(at(4), 3))).toEqual([5, 6, 7]);
    expect(numbers(recent.after(at(8), 50))).toEqual([9, 10]);
    // At the end of the stretch: nothing kept after it, which is not the same as "unknown".
    expect(recent.after(at(10), 5)).toEqual([]);
    expect(recent.after(at(11), 5)).toBeNull();
  });

  it('extends the stretch with reads that continue or overlap it, never duplicating an event', () => {
    const recent = new RecentEvents(100);
    recent.add(at(0), range(1, 5));
    recent.add(at(5), range(6, 8));
    recent.add(at(3), range(4, 12));
    expect(numbers(recent.after(at(0), 100))).toEqual(range(1, 12).map((_, i) => i + 1));
    expect(recent.after(null, 5)).toBeNull();
  });

  it('given a read ahead of the stretch, starts a new stretch there; a read behind it changes nothing', () => {
    const recent = new RecentEvents(100);
    recent.add(at(10), range(11, 20));
    recent.add(at(2), range(3, 5));
    expect(numbers(recent.after(at(10), 2))).toEqual([11, 12]);
    expect(recent.after(at(2), 2)).toBeNull();
    recent.add(at(30), range(31, 32));
    expect(recent.after(at(10), 2)).toBeNull();
    expect(numbers(recent.after(at(30), 5))).toEqual([31, 32]);
  });

  it('keeps at most its capacity (plus a quarter of slack), dropping the oldest', () => {
    const recent = new RecentEvents(8);
    for (let n = 1; n <= 40; n += 2) recent.add(at(n - 1), range(n, n + 1));
    expect(recent.size).toBeLessThanOrEqual(10);
    expect(recent.after(at(1), 1)).toBeNull();
    const tail = recent.after(at(40 - recent.size), 100);
    expect(numbers(tail)).toEqual(range(41 - recent.size, 40).map((e) => (e.data as { n: number }).n));
    const big = new RecentEvents(4);
    big.add(at(0), range(1, 10));
    expect(big.after(at(0), 1)).toBeNull();
    expect(numbers(big.after(at(6), 10))).toEqual([7, 8, 9, 10]);
  });

  it('never answers for the start of the log, where a truncated log would meet events that are gone', () => {
    const recent = new RecentEvents(100);
    recent.add(null, range(1, 3));
    expect(recent.after(null, 3)).toBeNull();
    expect(numbers(recent.after(at(1), 3))).toEqual([2, 3]);
    // The log was truncated and starts again: a read from its start does not mix with what is kept.
    recent.add(null, [event(1)]);
    expect(numbers(recent.after(at(1), 3))).toEqual([2, 3]);
  });

  it('keeps nothing with capacity 0', () => {
    const recent = new RecentEvents(0);
    recent.add(at(0), range(1, 3));
    expect(recent.after(at(0), 3)).toBeNull();
  });
});
