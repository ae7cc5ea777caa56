import { randomUUID } from 'node:crypto';
import { ledgerForTests } from './test-ledger';

/** `Idempotency-Key` on POST and PATCH, over real HTTP (docs/decisions.md, "Idempotency keys"). */
const t = ledgerForTests();

type Answer = { status: number; body: any; headers: Headers };

const withKey = (key: string, apiKey?: string) => ({ headers: { 'idempotency-key': key }, apiKey });
const post = (path: string, body: unknown, key: string, apiKey?: string): Promise<Answer> => t.call('POST', path, { body, ...withKey(key, apiKey) });

async function count(sql: string, params: unknown[] = []): Promise<number> {
  return (await t.pool.query(sql, params)).rows[0].n as number;
}
const cardsCreated = () => count(`select count(*)::int as n from events where event_type = 'CardCreated'`);
const transactionStreams = () => count(`select count(distinct stream_id)::int as n from events where stream_id like 'transaction-%'`);

function expectReplayOf(replay: Answer, first: Answer) {
  expect(replay.status).toBe(first.status);
  expect(replay.body).toEqual(first.body);
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  // The replay has a request id of its own; the stored body keeps the first one.
  expect(replay.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
}

describe('Idempotency-Key', () => {
  it('answers a repeat of the same request with the stored answer and appends one event', async () => {
    const key = randomUUID();
    const before = await cardsCreated();
    const first = await post('/v1/cards', { type: 'SINGLE_USE', memo: 'once', spend_limit: 500 }, key);
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    // The same JSON with its fields in another order is the same request.
    const second = await post('/v1/cards', { spend_limit: 500, memo: 'once', type: 'SINGLE_USE' }, key);
    expectReplayOf(second, first);
    expect(await cardsCreated()).toBe(before + 1);
    expect((await t.call('GET', '/v1/cards?page_size=1000')).body.data.filter((c: any) => c.memo === 'once')).toHaveLength(1);
  });

  it('answers 422 for the same key with another body or another path, and does nothing', async () => {
    const key = randomUUID();
    const first = await post('/v1/cards', { type: 'SINGLE_USE', memo: 'a' }, key);
    expect(first.status).toBe(200);
    const before = await cardsCreated();
    for (const other of [post('/v1/cards', { type: 'SINGLE_USE', memo: 'b' }, key), post('/v1/card', { type: 'SINGLE_USE', memo: 'a' }, key)]) {
      const answer = await other;
      expect(answer.status).toBe(422);
      expect(answer.body).toEqual({ debugging_request_id: expect.any(String), message: 'This Idempotency-Key was used with a different request; use a new key for a new request' });
    }
    expect(await cardsCreated()).toBe(before);
  });

  it('lets 20 concurrent requests with one key have one effect', async () => {
    const key = randomUUID();
    const before = await cardsCreated();
    const answers = await Promise.all(Array.from({ length: 20 }, () => post('/v1/cards', { type: 'DIGITAL_WALLET', memo: 'race' }, key)));
    const ok = answers.filter((a) => a.status === 200);
    expect(answers.every((a) => a.status === 200 || a.status === 409)).toBe(true);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(new Set(ok.map((a) => a.body.token)).size).toBe(1);
    expect(ok.filter((a) => a.headers.get('idempotent-replayed') === null)).toHaveLength(1);
    for (const busy of answers.filter((a) => a.status === 409)) expect(busy.body.message).toMatch(/still in progress/);
    expect(await cardsCreated()).toBe(before + 1);
    const cards = (await t.call('GET', '/v1/cards?page_size=1000')).body.data.filter((c: any) => c.memo === 'race');
    expect(cards.map((c: any) => c.token)).toEqual([ok[0].body.token]);
  });

  it('stores a failed request and answers its repeat with the same error', async () => {
    const key = randomUUID();
    const body = { type: 'SINGLE_USE', exp_month: '01', exp_year: '2020' };
    const first = await post('/v1/cards', body, key);
    expect(first.status).toBe(400);
    expect(first.body.message).toMatch(/is in the past/);
    const replay = await post('/v1/cards', body, key);
    expectReplayOf(replay, first);
    expect(replay.body.debugging_request_id).toBe(first.body.debugging_request_id);
  });

  it('replays a declined simulated authorization (422 with its token) without a second transaction', async () => {
    const card = (await t.call('POST', '/v1/cards', { body: { type: 'DIGITAL_WALLET', spend_limit: 1000, spend_limit_duration: 'TRANSACTION' } })).body;
    const key = randomUUID();
    const before = await transactionStreams();
    const first = await post('/v1/simulate/authorize', { pan: card.pan, amount: 1001, descriptor: 'Too much' }, key);
    expect(first.status).toBe(422);
    expect(first.body).toMatchObject({ token: expect.any(String), message: expect.stringContaining('USER_TRANSACTION_LIMIT') });
    const replay = await post('/v1/simulate/authorize', { pan: card.pan, amount: 1001, descriptor: 'Too much' }, key);
    expectReplayOf(replay, first);
    expect(await transactionStreams()).toBe(before + 1);

    // An approved one and a void of it are keyed just the same.
    const approved = await post('/v1/simulate/authorize', { pan: card.pan, amount: 100, descriptor: 'Fine' }, `${key}-ok`);
    expect(approved.status).toBe(200);
    expectReplayOf(await post('/v1/simulate/authorize', { pan: card.pan, amount: 100, descriptor: 'Fine' }, `${key}-ok`), approved);
    const voided = await post('/v1/simulate/void', { token: approved.body.token, amount: 100 }, `${key}-void`);
    expect(voided.status).toBe(200);
    expectReplayOf(await post('/v1/simulate/void', { token: approved.body.token, amount: 100 }, `${key}-void`), voided);
    expect(await transactionStreams()).toBe(before + 2);
  });

  it('keeps keys per program', async () => {
    const other = await t.createProgram('idempotency-other');
    const key = randomUUID();
    const mine = await post('/v1/cards', { type: 'SINGLE_USE', memo: 'mine' }, key);
    const theirs = await post('/v1/cards', { type: 'SINGLE_USE', memo: 'theirs' }, key, other.apiKey);
    expect([mine.status, theirs.status]).toEqual([200, 200]);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.token).not.toBe(mine.body.token);
  });

  it('keys PATCH too: the repeat is a replay, even after the card changed again', async () => {
    const card = (await t.call('POST', '/v1/cards', { body: { type: 'DIGITAL_WALLET' } })).body;
    const key = randomUUID();
    const first = await t.call('PATCH', `/v1/cards/${card.token}`, { body: { memo: 'first' }, ...withKey(key) });
    expect(first.status).toBe(200);
    expect((await t.call('PATCH', `/v1/cards/${card.token}`, { body: { memo: 'later' } })).status).toBe(200);
    const replay = await t.call('PATCH', `/v1/cards/${card.token}`, { body: { memo: 'first' }, ...withKey(key) });
    expectReplayOf(replay, first);
    expect((await t.call('GET', `/v1/cards/${card.token}`)).body.memo).toBe('later');
  });

  it.each([
    ['empty', ''],
    ['too long', 'k'.repeat(256)],
    ['not ASCII', 'clé'],
    ['a control character', 'a\tb'],
  ])('refuses a key that is %s with 400', async (_, key) => {
    const before = await cardsCreated();
    const answer = await t.call('POST', '/v1/cards', { body: { type: 'SINGLE_USE' }, headers: { 'idempotency-key': key } });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe('Idempotency-Key must be 1 to 255 printable ASCII characters');
    expect(await cardsCreated()).toBe(before);
  });

  it('accepts a key of 255 printable characters; requests without a key are not affected', async () => {
    const key = ' !~'.repeat(85);
    expect((await post('/v1/cards', { type: 'SINGLE_USE' }, key)).status).toBe(200);
    const [a, b] = [await t.call('POST', '/v1/cards', { body: { type: 'SINGLE_USE' } }), await t.call('POST', '/v1/cards', { body: { type: 'SINGLE_USE' } })];
    expect(a.body.token).not.toBe(b.body.token);
  });

  it('checks the api-key before the Idempotency-Key', async () => {
    const answer = await t.call('POST', '/v1/cards', { body: { type: 'SINGLE_USE' }, apiKey: null, headers: { 'idempotency-key': '' } });
    expect(answer.status).toBe(401);
  });

  it('treats an expired key as new', async () => {
    const key = randomUUID();
    const first = await post('/v1/cards', { type: 'SINGLE_USE', memo: 'expiring' }, key);
    await t.pool.query(`update idempotency_keys set expires_at = now() - interval '1 second' where key = $1`, [key]);
    const again = await post('/v1/cards', { type: 'SINGLE_USE', memo: 'expiring' }, key);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(again.body.token).not.toBe(first.body.token);
  });

  it('keeps the stored answer sealed: no PAN or CVV in clear in the table', async () => {
    const key = randomUUID();
    const card = (await post('/v1/cards', { type: 'SINGLE_USE' }, key)).body;
    const row = (await t.pool.query(`select * from idempotency_keys where key = $1`, [key])).rows[0];
    expect(row).toMatchObject({ status: 'done', response_status: 200 });
    expect(JSON.stringify(row)).not.toContain(card.pan);
    expect(row.response_body).not.toContain(card.token);
  });
});
