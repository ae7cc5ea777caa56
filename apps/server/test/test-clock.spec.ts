import { Pool } from 'pg';
import { ledgerCodec } from '@ledger/contracts';
import { programDecider, ProgramEvent, programStreamId } from '@ledger/domain';
import { EventStore, loadState, verifyChains } from '@ledger/event-store';
import { replayReadModels } from '@ledger/projector';
import { EVENT_STORE } from '@ledger/runtime';
import { ledgerForTests } from './test-ledger';

/**
 * The sandbox test clock over HTTP: each program moves its own clock, and every time-dependent rule
 * (card spend windows, velocity, expiry, platform limits, begin/end filters) reads it. Each scenario
 * runs in a program of its own, so one's advance cannot make another pass.
 */
const t = ledgerForTests({ RATE_LIMIT_PER_SECOND: '0', RATE_LIMIT_PER_MINUTE: '0' });

const DAY = 86_400_000;

/** A program of its own, and calls made with its api-key. */
async function aProgram(name: string) {
  const { apiKey, programToken } = await t.createProgram(name);
  const call = (method: string, path: string, body?: unknown) => t.call(method, path, { body, apiKey });
  const clock = async () => (await call('GET', '/v1/simulate/clock')).body;
  const advance = (frozenTime: string) => call('POST', '/v1/simulate/clock/advance', { frozen_time: frozenTime });
  const card = async (body: Record<string, unknown>) => (await call('POST', '/v1/cards', { type: 'DIGITAL_WALLET', ...body })).body;
  /** Authorizes and answers the transaction's result: APPROVED or the decline reason. */
  const authorize = async (pan: string, amount: number): Promise<string> => {
    const answer = await call('POST', '/v1/simulate/authorize', { pan, amount, descriptor: 'Clock Shop' });
    expect([200, 422]).toContain(answer.status);
    return (await call('GET', `/v1/transactions/${answer.body.token}`)).body.result;
  };
  return { apiKey, programToken, call, clock, advance, card, authorize };
}

const plus = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

describe('the clock itself', () => {
  it('is the wall clock until advanced, then keeps running from the frozen time', async () => {
    const p = await aProgram('clock basics');
    const before = await p.clock();
    expect(before).toEqual({ now: before.wall_time, wall_time: expect.any(String), frozen_time: null, advanced_at: null });

    const target = plus(before.now, 40 * DAY);
    const answer = await p.advance(target);
    expect(answer.status).toBe(200);
    expect(answer.body.frozen_time).toBe(target);
    expect(Date.parse(answer.body.advanced_at)).toBeGreaterThanOrEqual(Date.parse(before.wall_time));
    expect(Date.parse(answer.body.now)).toBeGreaterThanOrEqual(Date.parse(target));

    const after = await p.clock();
    // Running: as far past the frozen time as the wall clock is past the advance.
    expect(Date.parse(after.now) - Date.parse(target)).toBe(Date.parse(after.wall_time) - Date.parse(after.advanced_at));
  });

  it('never moves backwards: 400 naming frozen_time, and the clock is as it was', async () => {
    const p = await aProgram('clock backwards');
    await p.advance(plus((await p.clock()).now, 10 * DAY));
    const before = await p.clock();
    for (const earlier of [plus(before.frozen_time, -1), before.wall_time, '2001-01-01T00:00:00Z']) {
      const refused = await p.advance(earlier);
      expect(refused.status).toBe(400);
      expect(refused.body.message).toMatch(/frozen_time .* before the program's clock/);
    }
    const after = await p.clock();
    expect({ frozen: after.frozen_time, at: after.advanced_at }).toEqual({ frozen: before.frozen_time, at: before.advanced_at });
  });

  it('refuses what is not an RFC 3339 instant', async () => {
    const p = await aProgram('clock form');
    for (const bad of ['2030-01-01', 'tomorrow', '2030-02-30T00:00:00Z', 1893456000]) {
      const refused = await p.advance(bad as string);
      expect(refused.status).toBe(400);
      expect(refused.body.message).toMatch(/frozen_time/);
    }
  });

  it('takes an offset and answers the instant in UTC', async () => {
    const p = await aProgram('clock offset');
    const answer = await p.advance('2099-06-01T12:00:00+02:00');
    expect(answer.body.frozen_time).toBe('2099-06-01T10:00:00.000Z');
  });

  it('is per program: another program’s clock does not move', async () => {
    const mine = await aProgram('clock mine');
    const theirs = await aProgram('clock theirs');
    await mine.advance(plus((await mine.clock()).now, 100 * DAY));
    const other = await theirs.clock();
    expect(other.frozen_time).toBeNull();
    expect(other.now).toBe(other.wall_time);
  });
});

describe('rules across an advance', () => {
  it('MONTHLY: spend frees up once the clock is a calendar month and more past it', async () => {
    const p = await aProgram('monthly');
    const card = await p.card({ spend_limit: 1000, spend_limit_duration: 'MONTHLY' });
    expect(await p.authorize(card.pan, 900)).toBe('APPROVED');
    expect(await p.authorize(card.pan, 500)).toBe('USER_TRANSACTION_LIMIT');
    const available = async () => (await p.call('GET', `/v1/cards/${card.token}/spend_limits`)).body.available_spend_limit.monthly;
    expect(await available()).toBe(100);
    await p.advance(plus((await p.clock()).now, 20 * DAY));
    expect(await p.authorize(card.pan, 500)).toBe('USER_TRANSACTION_LIMIT');
    await p.advance(plus((await p.clock()).now, 12 * DAY));
    // The card's spend limits read the same clock as the next decision.
    expect(await available()).toBe(1000);
    expect(await p.authorize(card.pan, 500)).toBe('APPROVED');
  });

  it('ANNUALLY: the year’s spend frees up on 1 January of the program clock', async () => {
    const p = await aProgram('annually');
    const card = await p.card({ spend_limit: 1000, spend_limit_duration: 'ANNUALLY' });
    expect(await p.authorize(card.pan, 900)).toBe('APPROVED');
    const year = new Date((await p.clock()).now).getUTCFullYear();
    await p.advance(`${year}-12-31T23:59:00Z`);
    expect(await p.authorize(card.pan, 500)).toBe('USER_TRANSACTION_LIMIT');
    await p.advance(`${year + 1}-01-01T00:00:00Z`);
    expect(await p.authorize(card.pan, 500)).toBe('APPROVED');
  });

  it('velocity: attempts leave the window when the clock moves past it', async () => {
    const p = await aProgram('velocity');
    expect((await p.call('PATCH', `/v1/accounts/${p.programToken}`, { velocity_limit: { max_authorizations: 2, window_seconds: 3600 } })).status).toBe(200);
    const card = await p.card({});
    expect(await p.authorize(card.pan, 10)).toBe('APPROVED');
    expect(await p.authorize(card.pan, 10)).toBe('APPROVED');
    expect(await p.authorize(card.pan, 10)).toBe('FRAUD_ADVICE');
    await p.advance(plus((await p.clock()).now, 3601 * 1000));
    expect(await p.authorize(card.pan, 10)).toBe('APPROVED');
  });

  it('card expiry: a card stops working once the clock passes its expiry month', async () => {
    const p = await aProgram('expiry');
    const now = new Date((await p.clock()).now);
    const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
    const card = await p.card({ exp_month: String(nextMonth.getUTCMonth() + 1).padStart(2, '0'), exp_year: String(nextMonth.getUTCFullYear()) });
    const monthAfter = new Date(Date.UTC(nextMonth.getUTCFullYear(), nextMonth.getUTCMonth() + 1, 1));
    // A minute before its end (the clock keeps running while the request is made).
    await p.advance(plus(monthAfter.toISOString(), -60_000));
    expect(await p.authorize(card.pan, 10)).toBe('APPROVED');
    await p.advance(monthAfter.toISOString());
    expect(await p.authorize(card.pan, 10)).toBe('INVALID_CARD_DETAILS');
  });

  it('program-wide limits: the trailing month of the platform limit moves with the clock', async () => {
    const p = await aProgram('platform');
    expect((await p.call('PATCH', `/v1/accounts/${p.programToken}`, { spend_limit: { monthly: 1000 } })).status).toBe(200);
    const card = await p.card({});
    expect(await p.authorize(card.pan, 900)).toBe('APPROVED');
    expect(await p.authorize(card.pan, 500)).toBe('GLOBAL_MONTHLY_LIMIT');
    await p.advance(plus((await p.clock()).now, 32 * DAY));
    expect(await p.authorize(card.pan, 500)).toBe('APPROVED');
  });

  it('begin/end filters compare with business time; events record business and wall time, both under the hash chain', async () => {
    const p = await aProgram('filters');
    const before = await p.card({ memo: 'before' });
    const target = plus((await p.clock()).now, 60 * DAY);
    await p.advance(target);
    const after = await p.card({ memo: 'after' });
    expect(Date.parse(after.created)).toBeGreaterThanOrEqual(Date.parse(target) - 1000); // created is whole seconds

    const since = (await p.call('GET', `/v1/cards?begin=${encodeURIComponent(target)}`)).body.data.map((card: { token: string }) => card.token);
    expect(since).toEqual([after.token]);
    const until = (await p.call('GET', `/v1/cards?end=${encodeURIComponent(target)}`)).body.data.map((card: { token: string }) => card.token);
    expect(until).toEqual([before.token]);

    const [created] = (await p.call('GET', `/v1/cards/${after.token}/events`)).body.data;
    expect(Date.parse(created.metadata.occurredAt)).toBeGreaterThanOrEqual(Date.parse(target));
    expect(Date.parse(created.metadata.writtenAt)).toBeLessThan(Date.parse(target) - 59 * DAY);
    expect((await verifyChains(t.ledger.app.get<EventStore>(EVENT_STORE))).firstBreak).toBeNull();
  });
});

describe('replay', () => {
  it('rebuilds the clock and read models equal to live, for programs with advanced clocks', async () => {
    const p = await aProgram('replay');
    const card = await p.card({ spend_limit: 1000, spend_limit_duration: 'MONTHLY' });
    await p.authorize(card.pan, 900);
    await p.advance(plus((await p.clock()).now, 45 * DAY));
    await p.authorize(card.pan, 700);
    await p.advance(plus((await p.clock()).now, 400 * DAY));
    await p.authorize(card.pan, 800);

    const store = t.ledger.app.get<EventStore>(EVENT_STORE);
    // The program folded from its events alone, no cache: the clock the live service reads.
    const replayed = await loadState(store, programDecider, ledgerCodec<ProgramEvent>(), programStreamId(p.programToken));
    const live = await p.clock();
    expect(replayed.status === 'active' && { frozen_time: replayed.clock?.frozenTime, advanced_at: replayed.clock?.advancedAt }).toEqual({
      frozen_time: live.frozen_time,
      advanced_at: live.advanced_at,
    });
    const report = await replayReadModels(store, t.ledger.app.get(Pool), { schema: `replay_clock_${process.env.LEDGER_TEST_RUN ?? 'single'}` });
    expect(report.differences).toEqual([]);
  }, 60_000);
});
