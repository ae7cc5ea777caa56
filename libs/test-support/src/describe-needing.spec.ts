import { describeNeeding } from './describe-needing';

describe('describeNeeding', () => {
  const ci = process.env.CI;
  afterEach(() => {
    if (ci === undefined) delete process.env.CI;
    else process.env.CI = ci;
  });

  it('is the plain describe when the component is there', () => {
    expect(describeNeeding(null)).toBe(describe);
  });

  it('skips with the reason on a developer machine', () => {
    delete process.env.CI;
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const declared = describeNeeding('no broker');
    expect(declared).not.toBe(describe);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('no broker'));
    warn.mockRestore();
  });

  it('under CI=true declares a test that fails with the reason instead of skipping', () => {
    process.env.CI = 'true';
    const declared: { name: string; run: () => void }[] = [];
    const originalDescribe = global.describe;
    const originalIt = global.it;
    try {
      (global as { describe: unknown }).describe = (name: string, body: () => void) => body();
      (global as { it: unknown }).it = (name: string, run: () => void) => declared.push({ name, run });
      describeNeeding('no broker')('kafka suite', () => {
        throw new Error('the real body must not be declared');
      });
    } finally {
      global.describe = originalDescribe;
      global.it = originalIt;
    }
    expect(declared).toHaveLength(1);
    expect(declared[0].run).toThrow('required under CI=true: no broker');
  });
});
