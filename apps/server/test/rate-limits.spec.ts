import { PostgresThrottlerStorage } from '@ledger/gateway';
import { ApiAnswer, ledgerForTests, TestLedger } from './test-ledger';

/**
 * Rate limits per program (api-key) and, without a valid key, per client IP: 429 with Privacy's
 * message in our JSON error body and `Retry-After` (only a 429 has it), `x-requests-remaining` on every answer. Both
 * storages: the throttler's in-memory one and PostgreSQL counters shared by gateway processes.
 */
const PER_SECOND = 'Rate limited, too many requests per second. Please try again later.';
const PER_MINUTE = 'Rate limited, too many requests per minute. Please try again later.';

function expectRateLimited(answer: ApiAnswer, message: string, maxRetryAfter: number): void {
  expect(answer.status).toBe(429);
  expect(answer.body).toEqual({ debugging_request_id: expect.any(String), message });
  expect(answer.body.debugging_request_id).toBe(answer.headers.get('x-request-id'));
  expect(answer.headers.get('x-requests-remaining')).toBe('0');
  const retryAfter = Number(answer.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(maxRetryAfter);
  expect(answer.headers.get('x-should-retry')).toBe('true');
}

const burst = (t: TestLedger, count: number, apiKey?: string | null) =>
  Promise.all(Array.from({ length: count }, () => t.call('GET', '/v1/cards', { apiKey })));

describe.each(['memory', 'postgres'])('per second, %s storage', (store) => {
  const t = ledgerForTests({ RATE_LIMIT_PER_SECOND: '5', RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_STORE: store });

  it('answers 5 calls a second, then 429 with retry-after, and again once the second is over', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1100)); // start-up calls are in another window
    const answers = await burst(t, 8);
    const ok = answers.filter((answer) => answer.status === 200);
    expect(ok).toHaveLength(5);
    expect(ok.map((answer) => Number(answer.headers.get('x-requests-remaining'))).sort()).toEqual([0, 1, 2, 3, 4]);
    // Retry-After tells a client when to retry; an answer that succeeded has none (the Lithic SDK
    // would otherwise wait that long before retrying any error).
    expect(ok.filter((answer) => answer.headers.has('retry-after'))).toEqual([]);
    const limited = answers.filter((answer) => answer.status !== 200);
    expect(limited).toHaveLength(3);
    for (const answer of limited) expectRateLimited(answer, PER_SECOND, 1);

    await new Promise((resolve) => setTimeout(resolve, 1100));
    const later = await t.call('GET', '/v1/cards');
    expect(later.status).toBe(200);
    expect(later.headers.get('x-requests-remaining')).toBe('4');
  });

  it('counts each program on its own, and callers without a valid key by IP', async () => {
    const other = await t.createProgram(`Other ${store}`);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const mine = await burst(t, 6);
    const theirs = await burst(t, 5, other.apiKey);
    expect(mine.filter((answer) => answer.status === 429)).toHaveLength(1);
    expect(theirs.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);

    const anonymous = await burst(t, 7, 'not-a-key');
    expect(anonymous.filter((answer) => answer.status === 401)).toHaveLength(5);
    for (const answer of anonymous.filter((candidate) => candidate.status !== 401)) expectRateLimited(answer, PER_SECOND, 1);
  });

  it('never limits /health', async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, () => fetch(`${t.baseUrl}/health`)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
  });
});

describe('per minute', () => {
  const t = ledgerForTests({ RATE_LIMIT_PER_SECOND: '100', RATE_LIMIT_PER_MINUTE: '4', RATE_LIMIT_STORE: 'postgres' });

  it("answers 429 with Privacy's per-minute message", async () => {
    const answers: ApiAnswer[] = [];
    for (let i = 0; i < 6; i++) answers.push(await t.call('GET', '/v1/accounts'));
    // The start-up may already have counted against the IP, never against the program.
    expect(answers.slice(0, 4).map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect(answers.slice(0, 4).map((answer) => answer.headers.get('x-requests-remaining'))).toEqual(['3', '2', '1', '0']);
    for (const answer of answers.slice(4)) expectRateLimited(answer, PER_MINUTE, 60);
    const { rows } = await t.pool.query(`select key, hits from rate_limit_windows where key like 'minute:program:%'`);
    expect(rows).toEqual([{ key: expect.stringMatching(/^minute:program:[0-9a-f-]{36}$/), hits: 6 }]);
  });
});

/**
 * Requests from the sandbox program, 100 in flight at every moment (a new one as soon as one is
 * answered), until `count` were sent or (with `untilLimited`) one was refused with 429. Bounded
 * either way. Kept in flight rather than sent in waves: a wave waits for its slowest answer, and on a
 * loaded machine waves of 50 passed fewer than 100 a second, so a 100-a-second limit was never reached.
 */
async function flood(t: TestLedger, count: number, untilLimited = false): Promise<ApiAnswer[]> {
  const answers: ApiAnswer[] = [];
  let sent = 0;
  const done = () => sent >= count || (untilLimited && answers.some((answer) => answer.status === 429));
  const sender = async () => {
    while (!done()) {
      sent += 1;
      answers.push(await t.call('GET', '/v1/accounts'));
    }
  };
  await Promise.all(Array.from({ length: 100 }, sender));
  return answers;
}

describe.each([
  ['sandbox mode by default', {}, false],
  ['sandbox mode with RATE_LIMIT_PER_SECOND set', { RATE_LIMIT_PER_SECOND: '20' }, true],
  ['sandbox mode with RATE_LIMIT_PER_MINUTE set', { RATE_LIMIT_PER_MINUTE: '120' }, true],
  ['SANDBOX=false by default (100 a second)', { SANDBOX: 'false' }, true],
] as const)('the limits of %s', (_mode, env, limited) => {
  const t = ledgerForTests(env);

  it(limited ? 'answer 429 to a quick flood from one program' : 'let 300 quick requests from one program through', async () => {
    const answers = await flood(t, limited ? 1500 : 300, limited);
    if (limited) {
      const refused = answers.find((answer) => answer.status === 429);
      expect(refused).toBeDefined();
      expectRateLimited(refused!, 'RATE_LIMIT_PER_MINUTE' in env ? PER_MINUTE : PER_SECOND, 60);
    } else {
      expect(answers).toHaveLength(300);
      expect(answers.filter((answer) => answer.status !== 200).map((answer) => answer.status)).toEqual([]);
      // Not merely a generous limit: no limiter counts these requests at all.
      expect(answers.filter((answer) => answer.headers.has('x-requests-remaining'))).toEqual([]);
    }
  });
});

describe('PostgreSQL counters', () => {
  const t = ledgerForTests({ RATE_LIMIT_STORE: 'postgres' });

  it('are shared by two gateway processes and start a new window once one ends', async () => {
    const [a, b] = [new PostgresThrottlerStorage(t.pool), new PostgresThrottlerStorage(t.pool)];
    const hits = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).increment('second:program:shared', 300, 6, 300, 'second')));
    expect(hits.map((record) => record.totalHits).sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(hits.filter((record) => record.isBlocked)).toHaveLength(4);
    for (const record of hits) expect(record.timeToExpire).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(await a.increment('second:program:shared', 300, 6, 300, 'second')).toEqual({ totalHits: 1, timeToExpire: 1, isBlocked: false, timeToBlockExpire: 0 });
    await t.pool.query(`update rate_limit_windows set window_ends = now() - interval '2 minutes'`);
    await a.sweep();
    expect((await t.pool.query('select count(*)::int as n from rate_limit_windows')).rows[0].n).toBe(0);
  });
});
