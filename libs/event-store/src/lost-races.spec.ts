import { WrongExpectedVersionError } from './event-store.port';
import { LostRaces } from './lost-races';

describe('LostRaces: the bounded retry policy of a decision that loses races', () => {
  const lost = new WrongExpectedVersionError('card-1', 3, 4);

  it('lets a decision try again 199 times, then gives the last loss to its caller', async () => {
    const races = new LostRaces();
    for (let attempt = 1; attempt < 200; attempt++) await races.after(lost, { assumedFold: true });
    await expect(races.after(lost, { assumedFold: true })).rejects.toBe(lost);
  });

  it('waits after a loss on a read fold, but not after one on an assumed fold', async () => {
    jest.useFakeTimers();
    try {
      const races = new LostRaces();
      let waited = false;
      const afterRead = races.after(lost, { assumedFold: false }).then(() => (waited = true));
      await Promise.resolve();
      expect(waited).toBe(false);
      await jest.advanceTimersByTimeAsync(50);
      await afterRead;
      expect(waited).toBe(true);
      // Under fake timers a wait would never end: this resolves only because it does not wait.
      await expect(races.after(lost, { assumedFold: true })).resolves.toBeUndefined();
    } finally {
      jest.useRealTimers();
    }
  });
});
