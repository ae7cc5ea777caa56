import { Pool } from 'pg';
import { EventStore } from '@ledger/event-store';
import { replayReadModels } from '@ledger/projector';
import { runAdminCommand } from '@ledger/admin';
import { EVENT_STORE } from '@ledger/runtime';
import { startTestLedger, TestLedger } from './test-ledger';

/**
 * Auditors' replay: a few hundred mixed simulated transactions, the read models dropped and rebuilt
 * from the events alone, and the list responses before and after are identical.
 */
let t: TestLedger;
beforeAll(async () => {
  // The traffic is sequential but can pass 100 requests a second on a fast run: a 429 is not what this tests.
  t = await startTestLedger({ RATE_LIMIT_PER_SECOND: '0' });
});
afterAll(async () => {
  await t?.stop();
});

/** The ACCOUNT velocity limit the traffic runs under. */
let accountLimit = '';
/** The 3-D Secure authentication an authorization of the traffic follows. */
let threeDSToken = '';

async function mixedTraffic(): Promise<void> {
  const cards = [];
  for (const body of [
    { type: 'DIGITAL_WALLET', spend_limit: 20_000, spend_limit_duration: 'MONTHLY' },
    { type: 'DIGITAL_WALLET', spend_limit: 3_000, spend_limit_duration: 'FOREVER' },
    { type: 'MERCHANT_LOCKED' },
    { type: 'DIGITAL_WALLET', spend_limit: 500, spend_limit_duration: 'TRANSACTION' },
  ]) {
    cards.push((await t.call('POST', '/v1/cards', { body })).body);
  }
  const authorize = (pan: string, amount: number, descriptor: string) => t.call('POST', '/v1/simulate/authorize', { body: { pan, amount, descriptor } });
  // Auth rules, so the replay rebuilds what their streams and the authorizations' rule results hold:
  // a conditional rule enforced, an ACCOUNT velocity limit (its counter stream), a draft in shadow.
  const rule = async (body: object, promote: boolean) => {
    const created = (await t.call('POST', '/v2/auth_rules', { body: { program_level: true, ...body } })).body;
    expect(created.token).toEqual(expect.any(String));
    if (promote) expect((await t.call('POST', `/v2/auth_rules/${created.token}/promote`, { body: {} })).status).toBe(200);
    return created.token as string;
  };
  const shopRule = await rule({ type: 'CONDITIONAL_ACTION', parameters: { action: 'DECLINE', conditions: [{ attribute: 'DESCRIPTOR', operation: 'MATCHES', value: 'Other' }, { attribute: 'TRANSACTION_AMOUNT', operation: 'IS_GREATER_THAN', value: 500 }] } }, true);
  accountLimit = await rule({ type: 'VELOCITY_LIMIT', parameters: { scope: 'ACCOUNT', period: { type: 'DAY' }, limit_count: 100_000 } }, true);
  await rule({ type: 'CONDITIONAL_ACTION', parameters: { action: 'DECLINE', conditions: [{ attribute: 'TRANSACTION_AMOUNT', operation: 'IS_GREATER_THAN', value: 600 }] } }, false);
  let cleared: string | null = null;
  for (let i = 0; i < 240; i++) {
    const card = cards[i % cards.length];
    const answer = await authorize(card.pan, 50 + ((i * 37) % 700), i % 7 === 0 ? 'Other Shop' : 'Main Shop');
    const token = answer.body.token;
    if (answer.status !== 200) continue;
    if (i % 5 === 1) await t.call('POST', '/v1/simulate/void', { body: { token, amount: 10 } });
    if (i % 5 === 2 && (await t.call('POST', '/v1/simulate/clearing', { body: { token, amount: 40 } })).status === 200) cleared = cleared ?? token;
    if (i % 9 === 3) await t.call('POST', '/v1/simulate/authorization_advice', { body: { token, amount: 75 } });
    if (i % 5 === 3) await t.call('POST', `/v1/transactions/${token}/expire_authorization`);
    if (i % 11 === 4) await t.call('POST', '/v1/simulate/return', { body: { pan: card.pan, amount: 30, descriptor: 'Refund' } });
  }
  // Lithic's other kinds of message, so the replay rebuilds what their events carry.
  for (const [i, card] of cards.entries()) {
    await t.call('POST', '/v1/simulate/authorize', { body: { pan: card.pan, amount: 0, descriptor: 'ATM', status: 'BALANCE_INQUIRY' } });
    await t.call('POST', '/v1/simulate/authorize', { body: { pan: card.pan, amount: 60 + i, descriptor: 'ATM', status: 'FINANCIAL_AUTHORIZATION' } });
    await t.call('POST', '/v1/simulate/authorize', { body: { pan: card.pan, amount: 20 + i, descriptor: 'Refund', status: 'FINANCIAL_CREDIT_AUTHORIZATION' } });
    const credit = await t.call('POST', '/v1/simulate/authorize', { body: { pan: card.pan, amount: 30 + i, descriptor: 'Refund', status: 'CREDIT_AUTHORIZATION' } });
    const advice = await t.call('POST', '/v1/simulate/credit_authorization_advice', { body: { pan: card.pan, amount: 40 + i, descriptor: 'Refund' } });
    if (i % 2 === 0) await t.call('POST', '/v1/simulate/clearing', { body: { token: credit.body.token } });
    if (i % 2 === 1) await t.call('POST', '/v1/simulate/clearing', { body: { token: advice.body.token } });
  }
  // Through a wallet token, paused and unpaused, and a declined tokenization: the transactions carry token_info, the feed tokenization.result and .updated.
  const wallet = cards[1];
  const tokenize = (overrides: object) => t.call('POST', '/v1/simulate/tokenizations', { body: { pan: wallet.pan, cvv: wallet.cvv, expiration_date: `${wallet.exp_month}/${wallet.exp_year.slice(-2)}`, tokenization_source: 'GOOGLE', ...overrides } });
  const { token: tokenizationToken } = (await tokenize({})).body;
  await tokenize({ wallet_recommended_decision: 'DECLINED' });
  const throughToken = (amount: number) => t.call('POST', '/v1/simulate/authorize', { body: { pan: wallet.pan, amount, descriptor: 'Wallet Shop', tokenization_token: tokenizationToken } });
  await throughToken(11);
  await t.call('POST', `/v1/tokenizations/${tokenizationToken}/pause`);
  await throughToken(12);
  await t.call('POST', `/v1/tokenizations/${tokenizationToken}/unpause`);
  await throughToken(13);
  expect((await t.call('POST', `/v2/auth_rules/${shopRule}/backtests`, { body: {} })).status).toBe(200);
  await t.call('POST', '/v1/simulate/settle', { body: {} });
  // A dispute of a settled purchase, amended, submitted and won: the feed's dispute.updated bodies are folded from its stream.
  const dispute = (await t.call('POST', '/v1/disputes', { body: { transaction_token: cleared, amount: 30, reason: 'DUPLICATED' } })).body;
  expect((await t.call('PATCH', `/v1/disputes/${dispute.token}`, { body: { amount: 40 } })).status).toBe(200);
  for (const status of ['SUBMITTED', 'CASE_WON']) expect((await t.call('POST', `/v1/simulate/disputes/${dispute.token}/advance`, { body: { status } })).status).toBe(200);
  // 3-D Secure, one challenged and passed, and the authorization that follows it (its cardholder_authentication).
  const merchant = { id: 'OODKZAPJVN4YS7O', country: 'USA', mcc: '5812', name: 'CHALLENGE COFFEE' };
  const threeDS = (await t.call('POST', '/v1/three_ds_authentication/simulate', { body: { merchant, pan: cards[0].pan, transaction: { amount: 1_250, currency: 'USD' } } })).body;
  threeDSToken = threeDS.token;
  expect((await t.call('POST', '/v1/three_ds_decisioning/simulate/enter_otp', { body: { token: threeDS.token, otp: '123456' } })).status).toBe(200);
  await t.call('POST', '/v1/simulate/authorize', { body: { pan: cards[0].pan, amount: 1_250, descriptor: 'CHALLENGE COFFEE', mcc: '5812', merchant_acceptor_id: merchant.id, three_ds_authentication_token: threeDS.token } });
  // A card's plastic: ordered, shipped, activated, renewed and reissued; a virtual card converted.
  const address = { first_name: 'Janet', last_name: 'Yellen', address1: '5 Broad Street', city: 'NEW YORK', state: 'NY', postal_code: '10001', country: 'USA' };
  const plastic = (await t.call('POST', '/v1/cards', { body: { type: 'PHYSICAL', shipping_address: address, spend_limit: 1_000, spend_limit_duration: 'FOREVER' } })).body;
  expect((await t.call('POST', `/v1/simulate/cards/${plastic.token}/ship`, { body: { tracking_number: '1Z999AA10123456784' } })).status).toBe(200);
  expect((await t.call('PATCH', `/v1/cards/${plastic.token}`, { body: { state: 'OPEN' } })).status).toBe(200);
  await authorize(plastic.pan, 300, 'Main Shop');
  expect((await t.call('POST', `/v1/cards/${plastic.token}/renew`, { body: { shipping_address: address } })).status).toBe(200);
  expect((await t.call('POST', `/v1/cards/${plastic.token}/reissue`, { body: {} })).status).toBe(200);
  const virtual = (await t.call('POST', '/v1/cards', { body: { type: 'VIRTUAL' } })).body;
  expect((await t.call('POST', `/v1/cards/${virtual.token}/convert_physical`, { body: { shipping_address: address } })).status).toBe(200);
  await t.call('PATCH', `/v1/cards/${cards[0].token}`, { body: { state: 'PAUSED' } });
}

async function everyList(): Promise<unknown[]> {
  const pages = [];
  for (let page = 1; ; page++) {
    const answer = (await t.call('GET', `/v1/transactions?page_size=100&page=${page}`)).body;
    pages.push(answer);
    if (page >= answer.total_pages) break;
  }
  pages.push((await t.call('GET', '/v1/cards?page_size=1000')).body);
  pages.push((await t.call('GET', '/v1/transactions?result=DECLINED&page_size=1000')).body);
  // The money read from the ledger view: every balance of the program and of each card.
  pages.push((await t.call('GET', '/v1/balances')).body);
  for (const card of (await t.call('GET', '/v1/cards?page_size=1000')).body.data) pages.push((await t.call('GET', `/v1/cards/${card.token}/balances`)).body);
  return pages;
}

it('replays a few hundred mixed transactions into identical read models and list responses', async () => {
  await mixedTraffic();
  const before = await everyList();
  expect((before[0] as { total_entries: number }).total_entries).toBeGreaterThan(200);
  const shown = (before as { data?: { token_info: unknown; result: string }[] }[]).flatMap((page) => page.data ?? []).filter((transaction) => Boolean(transaction.token_info));
  expect(new Set(shown.map((transaction) => transaction.result))).toEqual(new Set(['APPROVED', 'CARD_PAUSED']));
  // The rules ran: declines by the enforced rule, and the ACCOUNT limit's results, are among what is compared.
  const results = JSON.stringify(before);
  expect(results).toContain('"MERCHANT_BLACKLIST"');
  expect(results).toContain(accountLimit);
  expect(results).toContain(`"three_ds_authentication_token":"${threeDSToken}"`);

  const store = t.ledger.app.get<EventStore>(EVENT_STORE);
  const report = await replayReadModels(store, t.ledger.app.get(Pool), { keepSchema: true, eventsFeed: true, schema: `replay_${process.env.LEDGER_TEST_RUN ?? 'single'}` });
  // The read models and the events feed: every feed row of the replay is the live one, byte for byte.
  expect(report.differences).toEqual([]);
  // Cut into small batches, each derived while the ones before it are still being written: the same rows and feed.
  const small = await replayReadModels(store, t.ledger.app.get(Pool), { batchSize: 23, eventsFeed: true, schema: `replay_small_${process.env.LEDGER_TEST_RUN ?? 'single'}` });
  expect(small.events).toBe(report.events);
  expect(small.differences).toEqual([]);
  const feedRows = await t.pool.query(`select count(*)::int as n from "${report.schema}".feed_events`);
  expect(feedRows.rows[0].n).toBeGreaterThan(200);
  // Among them the bodies rendered from a stream folded up to their event: the token's pause and unpause, the dispute's four changes.
  const folded = await t.pool.query(`select event_type, count(*)::int as n from "${report.schema}".feed_events where event_type in ('tokenization.updated', 'dispute.updated') group by event_type order by event_type`);
  expect(folded.rows).toEqual([{ event_type: 'dispute.updated', n: 4 }, { event_type: 'tokenization.updated', n: 2 }]);
  expect(report.events).toBeGreaterThan(500);
  expect(report.eventsPerSecond).toBeGreaterThan(0);

  // Drop the live read models and put the replayed ones in their place: the API answers the same.
  await t.pool.query(`truncate programs, api_keys, funding_sources, cards, transactions`);
  for (const table of ['programs', 'api_keys', 'funding_sources', 'cards', 'transactions']) {
    await t.pool.query(`insert into public."${table}" select * from "${report.schema}"."${table}"`);
  }
  await t.pool.query(`drop schema "${report.schema}" cascade`);
  expect(await everyList()).toEqual(before);
}, 120_000);

it('answers the admin replay with the comparison and its rate', async () => {
  const outcome = await runAdminCommand(t.ledger.app, ['replay']);
  expect(outcome.ok).toBe(true);
  expect(outcome.output).toMatchObject({ identical: true, differenceCount: 0, events: expect.any(Number), eventsPerSecond: expect.any(Number) });
  // Every stream the traffic wrote (rules, their list, the ACCOUNT limit's counter, the backtest) chains intact.
  expect((await runAdminCommand(t.ledger.app, ['verify'])).output).toMatchObject({ intact: true, firstBreak: null });
  await t.pool.query(`update cards set memo = 'tampered read model' where token = (select token from cards limit 1)`);
  const broken = await runAdminCommand(t.ledger.app, ['replay']);
  expect(broken.ok).toBe(false);
  expect(broken.output).toMatchObject({ identical: false, differenceCount: 1, differences: [{ table: 'cards', live: { memo: 'tampered read model' } }] });
});
