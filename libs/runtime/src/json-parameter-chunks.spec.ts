import { jsonParameterChunks } from './json-parameter-chunks';

describe('jsonParameterChunks', () => {
  const items = Array.from({ length: 50 }, (_, i) => ({ i, text: 'x'.repeat(i % 7) }));

  it('splits the items into JSON arrays that together hold every item once, in order', () => {
    const chunks = [...jsonParameterChunks(items, JSON.stringify, 200)];
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.flatMap((chunk) => JSON.parse(chunk) as unknown[])).toEqual(items);
  });

  it('keeps every chunk within the limit, but for an item that alone exceeds it', () => {
    const long = { text: 'y'.repeat(500) };
    const chunks = [...jsonParameterChunks([...items.slice(0, 10), long, ...items.slice(10)], JSON.stringify, 200)];
    const oversized = chunks.filter((chunk) => chunk.length > 200);
    expect(oversized).toEqual([JSON.stringify([long])]);
  });

  it('makes one chunk of everything under the limit and none of nothing', () => {
    expect([...jsonParameterChunks(items)]).toEqual([JSON.stringify(items)]);
    expect([...jsonParameterChunks([])]).toEqual([]);
  });
});
