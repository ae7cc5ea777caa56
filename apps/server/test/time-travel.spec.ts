import { ledgerForTests } from './test-ledger';

/** `as_of`: the card and the transaction list as they were at a moment, computed from the events. */
const t = ledgerForTests({});

/** Waits for the clock (milliseconds, as events record it) to move on from `since`. */
async function clockPast(since: number): Promise<void> {
  while (Date.now() <= since) await new Promise((resolve) => setImmediate(resolve));
}

/** An instant strictly after every event recorded so far and strictly before the next one. */
async function moment(): Promise<string> {
  await clockPast(Date.now());
  const at = Date.now();
  await clockPast(at);
  return new Date(at).toISOString();
}

/**
 * An instant in a later whole second than every event so far (the API shows times to the second): a
 * view that showed the moment asked about where it should show its events' own times differs from
 * the live one there, every time, not only when a second happens to turn in between.
 */
async function momentInALaterSecond(): Promise<string> {
  await clockPast(Math.floor(Date.now() / 1000) * 1000 + 999);
  return moment();
}

it('shows a card before and after a pause and a limit change, and transactions before and after a clearing', async () => {
  const created = await moment();
  const card = (await t.call('POST', '/v1/cards', { body: { type: 'DIGITAL_WALLET', spend_limit: 1000, spend_limit_duration: 'FOREVER', memo: 'time' } })).body;
  const beforePause = await moment();
  await t.call('PATCH', `/v1/cards/${card.token}`, { body: { state: 'PAUSED' } });
  const beforeLimit = await moment();
  await t.call('PATCH', `/v1/cards/${card.token}`, { body: { spend_limit: 5000, state: 'OPEN' } });
  const beforeAuthorization = await moment();
  const tx = (await t.call('POST', '/v1/simulate/authorize', { body: { pan: card.pan, amount: 700, descriptor: 'Shop' } })).body.token;
  const beforeClearing = await moment();
  await t.call('POST', '/v1/simulate/clearing', { body: { token: tx, amount: 650 } });
  const after = await momentInALaterSecond();

  const cardAt = async (at: string) => t.call('GET', `/v1/cards/${card.token}?as_of=${encodeURIComponent(at)}`);
  expect((await cardAt(created)).status).toBe(404);
  expect((await cardAt(beforePause)).body).toMatchObject({ state: 'OPEN', spend_limit: 1000, memo: 'time', pan: card.pan, cvv: card.cvv });
  expect((await cardAt(beforeLimit)).body).toMatchObject({ state: 'PAUSED', spend_limit: 1000 });
  expect((await cardAt(beforeAuthorization)).body).toMatchObject({ state: 'OPEN', spend_limit: 5000 });
  expect((await cardAt(after)).body).toEqual((await t.call('GET', `/v1/cards/${card.token}`)).body);

  const listAt = async (at: string) => (await t.call('GET', `/v1/transactions?card_token=${card.token}&as_of=${encodeURIComponent(at)}`)).body;
  expect(await listAt(beforeAuthorization)).toMatchObject({ data: [], total_entries: 0 });
  expect((await listAt(beforeClearing)).data).toEqual([
    expect.objectContaining({ token: tx, status: 'PENDING', amount: 700, settled_amount: 0, card: expect.objectContaining({ state: 'OPEN', spend_limit: 5000 }) }),
  ]);
  expect((await listAt(after)).data).toEqual([expect.objectContaining({ token: tx, status: 'SETTLING', amount: 650, settled_amount: 650 })]);
  expect(await listAt(after)).toEqual((await t.call('GET', `/v1/transactions?card_token=${card.token}`)).body);
});

it('validates as_of', async () => {
  const card = (await t.call('POST', '/v1/cards', { body: { type: 'SINGLE_USE' } })).body;
  for (const bad of ['yesterday', '22/11/2026', '2026-13-01T00:00:00Z']) {
    expect((await t.call('GET', `/v1/cards/${card.token}?as_of=${bad}`)).status).toBe(400);
    expect((await t.call('GET', `/v1/transactions?as_of=${bad}`)).status).toBe(400);
  }
});
