import type { Card } from '@ledger/read-model';
import { CarriedRows } from './carried-rows';
import { newProjectionRows } from './projection-rows';
import { WrittenKeys } from './written-keys';

/** The rows a replay carries between batches, and the filter that tells rows it never wrote. */
describe('WrittenKeys', () => {
  it('never says "never written" of a key it was given, and seldom says "maybe" of one it was not', () => {
    const keys = new WrittenKeys(20);
    const token = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    for (let i = 0; i < 50_000; i++) keys.add(1, token(i));
    for (let i = 0; i < 50_000; i++) expect(keys.mayHave(1, token(i))).toBe(true);
    let maybe = 0;
    for (let i = 50_000; i < 100_000; i++) if (keys.mayHave(1, token(i))) maybe++;
    // 2^20 bits and 7 probes for 50,000 keys: about 0.4% false "maybe".
    expect(maybe).toBeLessThan(50_000 * 0.02);
    // The same key in another table is another key.
    expect([...Array(1000).keys()].filter((i) => keys.mayHave(2, token(i))).length).toBeLessThan(20);
  });
});

describe('CarriedRows', () => {
  const card = (memo: string) => ({ token: 'card-1', memo }) as unknown as Card;
  const batchWriting = (carried: CarriedRows, memo: string) => {
    const rows = newProjectionRows(carried.known);
    rows.cards.set('card-1', card(memo));
    return rows;
  };

  it('gives the row of a batch not yet committed, the latest batch winning, until the batch that wrote it last has committed', () => {
    const carried = new CarriedRows({ tablesStartEmpty: true });
    carried.carry(1, batchWriting(carried, 'first'));
    carried.carry(2, batchWriting(carried, 'second'));
    expect(carried.known.cards?.('card-1')).toEqual(card('second'));
    carried.committed(1);
    expect(carried.known.cards?.('card-1')).toEqual(card('second'));
    carried.committed(2);
    // Committed: read from the table (the filter knows it was written).
    expect(carried.known.cards?.('card-1')).toBeUndefined();
    expect(carried.carriedBatches).toBe(0);
  });

  it('knows a row the replay never wrote is absent only when the tables started empty', () => {
    expect(new CarriedRows({ tablesStartEmpty: true }).known.transactions?.('never')).toBeNull();
    expect(new CarriedRows({ tablesStartEmpty: false }).known.transactions?.('never')).toBeUndefined();
  });

  it('answers a carried row to the next batch without a read: the row set does not ask for it', () => {
    const carried = new CarriedRows({ tablesStartEmpty: false });
    carried.carry(1, batchWriting(carried, 'first'));
    const next = newProjectionRows(carried.known);
    next.cards.need('card-1');
    next.cards.need('card-2');
    expect(next.cards.keysToLoad()).toEqual(['card-2']);
    expect(next.cards.get('card-1')).toEqual(card('first'));
  });
});
