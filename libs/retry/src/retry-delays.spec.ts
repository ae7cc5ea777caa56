import { RetryDelays } from './retry-delays';

describe('RetryDelays', () => {
  it('doubles from the first wait up to the longest, and stays there', () => {
    const delays = new RetryDelays({ firstMs: 250, longestMs: 5000 });
    expect(Array.from({ length: 8 }, () => delays.next())).toEqual([250, 500, 1000, 2000, 4000, 5000, 5000, 5000]);
  });

  it('starts again from the first wait after a success', () => {
    const delays = new RetryDelays({ firstMs: 100, longestMs: 5000 });
    delays.next();
    delays.next();
    delays.reset();
    expect([delays.next(), delays.next()]).toEqual([100, 200]);
  });

  it('refuses a policy whose waits cannot grow from a positive first one', () => {
    expect(() => new RetryDelays({ firstMs: 0, longestMs: 100 })).toThrow(RangeError);
    expect(() => new RetryDelays({ firstMs: 500, longestMs: 100 })).toThrow(RangeError);
  });
});
