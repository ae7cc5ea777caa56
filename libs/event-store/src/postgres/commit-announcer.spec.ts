import { CommitAnnouncer } from './commit-announcer';

/** A notify whose calls stay open until the test lets them finish. */
function controlledNotify() {
  const pending: Array<{ finish: () => void; fail: () => void }> = [];
  const notify = jest.fn(
    () =>
      new Promise<void>((resolve, reject) => {
        pending.push({ finish: resolve, fail: () => reject(new Error('connection lost')) });
      }),
  );
  const finishNext = async (outcome: 'finish' | 'fail' = 'finish') => {
    const call = pending.shift();
    if (!call) throw new Error('no notification in flight');
    call[outcome]();
    // Let the announcer's loop see the outcome and decide whether to send again.
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { notify, finishNext, inFlight: () => pending.length };
}

describe('CommitAnnouncer', () => {
  it('wakes local subscribers at once for every commit, and sends one notification at a time', () => {
    const { notify, inFlight } = controlledNotify();
    const wakeLocal = jest.fn();
    const announcer = new CommitAnnouncer(notify, wakeLocal);

    announcer.announce();
    announcer.announce();
    announcer.announce();

    expect(wakeLocal).toHaveBeenCalledTimes(3);
    expect(notify).toHaveBeenCalledTimes(1);
    expect(inFlight()).toBe(1);
  });

  it('folds the commits made while a notification is on its way into exactly one more', async () => {
    const { notify, finishNext } = controlledNotify();
    const announcer = new CommitAnnouncer(notify, () => undefined);

    announcer.announce();
    announcer.announce();
    announcer.announce();
    await finishNext();
    expect(notify).toHaveBeenCalledTimes(2);

    await finishNext();
    await announcer.settled();
    expect(notify).toHaveBeenCalledTimes(2);
  });

  it('announces the next commit after a quiet spell, and after a failed notification', async () => {
    const { notify, finishNext } = controlledNotify();
    const announcer = new CommitAnnouncer(notify, () => undefined);

    announcer.announce();
    await finishNext('fail');
    await announcer.settled();
    announcer.announce();

    expect(notify).toHaveBeenCalledTimes(2);
    await finishNext();
    await announcer.settled();
  });
});
