import { randomUUID } from 'node:crypto';
import { AUTHORIZATION_FAULT_POINTS } from '@ledger/event-store';
import { AFTER_THE_COMMIT, OneShotFault } from './one-shot-fault';
import { ApiAnswer, startTestLedger, TestLedger } from './test-ledger';

/**
 * Issue 14: a caller never gets a 5xx for an authorization that stands. A failure is injected once at
 * each step of the authorization path; a client that retries every 5xx without an Idempotency-Key
 * must end with exactly one transaction for its intent, and every answer it got must be the truth:
 * a 200 or 422 is listed with that result, a 5xx left nothing behind and said so.
 */

const faults = new OneShotFault();
let t: TestLedger;
let pan: string;

beforeAll(async () => {
  t = await startTestLedger({}, { faultPoints: faults });
  pan = (await t.call('POST', '/v1/cards', { body: { type: 'DIGITAL_WALLET', spend_limit: 1_000_000, spend_limit_duration: 'FOREVER' } })).body.pan;
}, 60_000);

afterAll(() => t?.stop());

/** Sends one intent until it gets an answer that is not a 5xx, as a client without Idempotency-Key does. */
async function authorizeRetryingEvery5xx(descriptor: string): Promise<ApiAnswer[]> {
  const answers: ApiAnswer[] = [];
  for (;;) {
    const answer = await t.call('POST', '/v1/simulate/authorize', { body: { pan, amount: 125, descriptor } });
    answers.push(answer);
    if (answer.status < 500) return answers;
    if (answers.length > 5) throw new Error(`still ${answer.status} after ${answers.length} attempts: ${JSON.stringify(answer.body)}`);
  }
}

async function listedFor(descriptor: string): Promise<any[]> {
  const listed = (await t.call('GET', '/v1/transactions?page_size=1000')).body.data as any[];
  return listed.filter((tx) => tx.merchant.descriptor === descriptor);
}

async function withdrawals(): Promise<number> {
  return (await t.pool.query(`select count(*)::int as n from events where event_type = 'AuthorizationWithdrawn'`)).rows[0].n;
}

describe.each(AUTHORIZATION_FAULT_POINTS.map((point) => [point]))('a failure at %s', (point) => {
  it(AFTER_THE_COMMIT.includes(point) ? 'is answered with the recorded decision' : 'answers 503 with nothing recorded, and the retry authorizes once', async () => {
    const descriptor = `Intent ${randomUUID().slice(0, 8)}`;
    const withdrawnBefore = await withdrawals();
    const firedBefore = faults.fired;
    faults.arm(point);
    const answers = await authorizeRetryingEvery5xx(descriptor);
    expect(faults.fired).toBe(firedBefore + 1);

    const listed = await listedFor(descriptor);
    // One intent, one transaction, whatever failed on the way.
    expect(listed.map((tx) => tx.result)).toEqual(['APPROVED']);
    const final = answers[answers.length - 1];
    expect({ status: final.status, token: final.body.token }).toEqual({ status: 200, token: listed[0].token });

    const failed = answers.slice(0, -1);
    if (AFTER_THE_COMMIT.includes(point)) {
      // The decision stood: the caller was never told otherwise.
      expect(failed).toEqual([]);
      expect(await withdrawals()).toBe(withdrawnBefore);
    } else {
      expect(failed.map((answer) => [answer.status, answer.headers.get('x-should-retry'), answer.body.message])).toEqual([
        [503, 'true', expect.stringContaining('safe to send it again')],
      ]);
      expect(await withdrawals()).toBe(withdrawnBefore + 1);
    }
  });
});
