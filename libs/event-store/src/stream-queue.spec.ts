import { StreamQueue } from './stream-queue';

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('StreamQueue', () => {
  it('runs work on one stream one at a time, in arrival order, and other streams beside it', async () => {
    const queue = new StreamQueue();
    const log: string[] = [];
    const first = gate();
    const a1 = queue.run('a', async () => {
      log.push('a1 start');
      await first.opened;
      log.push('a1 end');
      return 1;
    });
    const a2 = queue.run('a', async () => {
      log.push('a2');
      return 2;
    });
    const b1 = queue.run('b', async () => {
      log.push('b1');
      return 3;
    });
    await b1;
    expect(log).toEqual(['a1 start', 'b1']);
    first.open();
    expect(await Promise.all([a1, a2, b1])).toEqual([1, 2, 3]);
    expect(log).toEqual(['a1 start', 'b1', 'a1 end', 'a2']);
  });

  it('a failed work fails only its own caller; the next one still runs, and idle streams are forgotten', async () => {
    const queue = new StreamQueue();
    const failed = queue.run('a', async () => {
      throw new Error('boom');
    });
    const next = queue.run('a', async () => 'ran');
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe('ran');
    await new Promise((resolve) => setImmediate(resolve));
    expect(queue.size).toBe(0);
  });
});
