import { StreamFoldCache } from './stream-fold-cache';

const fold = (state: string, version: number) => ({ state, version, head: null });

describe('StreamFoldCache', () => {
  it('keeps two folds of one stream side by side, each by its folder', () => {
    const cache = new StreamFoldCache();
    const card = {};
    const activity = {};
    cache.set('card-1', card, fold('card at 3', 3));
    cache.set('card-1', activity, fold('activity at 2', 2));
    expect(cache.get('card-1', card)).toEqual(fold('card at 3', 3));
    expect(cache.get('card-1', activity)).toEqual(fold('activity at 2', 2));
    expect(cache.get('card-1', {})).toBeUndefined();
  });

  it('keeps the fold that saw more of the stream, per folder', () => {
    const cache = new StreamFoldCache();
    const folder = {};
    cache.set('s', folder, fold('newer', 5));
    cache.set('s', folder, fold('older', 4));
    expect(cache.get('s', folder)?.state).toBe('newer');
  });

  it('forgets the least recently used stream, with all its folds, past its capacity', () => {
    const cache = new StreamFoldCache(2);
    const folder = {};
    cache.set('a', folder, fold('a', 0));
    cache.set('b', folder, fold('b', 0));
    cache.get('a', folder);
    cache.set('c', folder, fold('c', 0));
    expect([cache.get('a', folder)?.state, cache.get('b', folder)?.state, cache.get('c', folder)?.state]).toEqual(['a', undefined, 'c']);
    expect(cache.size).toBe(2);
  });
});
