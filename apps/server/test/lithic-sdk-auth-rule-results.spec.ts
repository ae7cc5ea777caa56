import Lithic from 'lithic';
import type { V2ListResultsResponse } from 'lithic/resources/auth-rules/v2/v2';
import { ledgerForTests } from './test-ledger';

/**
 * `client.authRules.v2.listResults`, `retrieveReport` and `retrieveFeatures` of the official SDK: the
 * results are the decisions a set of authorizations actually got, the report counts them, and the
 * features are the counters the next authorization is decided against.
 */

type AuthorizationResult = V2ListResultsResponse.AuthorizationResult;
const noCigars = { action: 'DECLINE' as const, conditions: [{ attribute: 'MCC' as const, operation: 'IS_ONE_OF' as const, value: ['5993'] }] };

describe('the lithic SDK: auth rule results, report and features', () => {
  const t = ledgerForTests();
  let client: Lithic;
  beforeAll(async () => {
    // A program of its own: its results are exactly those of the authorizations below.
    const { apiKey } = await t.createProgram('rule-results');
    client = new Lithic({ apiKey, baseURL: t.baseUrl, maxRetries: 0 });
  });

  const statusOf = (answer: Promise<unknown>) =>
    answer.then(
      () => 200,
      (error: unknown) => (error as { status: number }).status,
    );
  const resultsOf = async (query: Parameters<Lithic['authRules']['v2']['listResults']>[0]) => {
    const all: AuthorizationResult[] = [];
    for await (const result of client.authRules.v2.listResults(query)) all.push(result as AuthorizationResult);
    return all;
  };

  it('lists the result of every rule version on every authorization, and the report counts exactly those', async () => {
    const card = await client.cards.create({ type: 'VIRTUAL' });
    const rule = await client.authRules.v2.create({ type: 'CONDITIONAL_ACTION', name: 'No cigars', card_tokens: [card.token], parameters: noCigars });
    const at = (mcc: string) => statusOf(client.transactions.simulateAuthorization({ amount: 1000, descriptor: `SHOP ${mcc}`, mcc, pan: card.pan! }));

    // In shadow the cigar shop is approved; promoted, the rule declines it and approves the coffee shop.
    expect(await at('5993')).toBe(200);
    await client.authRules.v2.promote(rule.token);
    expect(await at('5993')).toBe(422);
    expect(await at('5812')).toBe(200);

    const transactions = [];
    for await (const transaction of client.transactions.list({ card_token: card.token })) transactions.push(transaction);
    const results = await resultsOf({ auth_rule_token: rule.token, page_size: 1 });
    expect(results.map(({ transaction_token, mode, rule_version, actions }) => ({ transaction_token, mode, rule_version, actions }))).toEqual([
      { transaction_token: transactions[0].token, mode: 'INACTIVE', rule_version: 1, actions: [{ type: 'DECLINE', code: 'AUTH_RULE', explanation: 'conditions met: DECLINE' }] },
      { transaction_token: transactions[1].token, mode: 'ACTIVE', rule_version: 1, actions: [{ type: 'DECLINE', code: 'AUTH_RULE', explanation: 'conditions met: DECLINE' }] },
      { transaction_token: transactions[2].token, mode: 'ACTIVE', rule_version: 1, actions: [] },
    ]);
    // The enforced results are the decisions the transactions got.
    expect(transactions.map((transaction) => transaction.result)).toEqual(['APPROVED', 'MERCHANT_BLACKLIST', 'APPROVED']);
    for (const result of results) {
      expect(result).toMatchObject({ auth_rule_token: rule.token, event_stream: 'AUTHORIZATION' });
      const transaction = transactions.find((each) => each.token === result.transaction_token)!;
      expect(result.event_token).toBe(transaction.events![0].token);
      // The transaction shows whole seconds; the evaluation its recorded instant.
      expect(result.evaluation_time.slice(0, 19)).toBe(transaction.events![0].created.slice(0, 19));
    }

    expect((await resultsOf({ auth_rule_token: rule.token, has_actions: true })).map((result) => result.token)).toEqual(results.slice(0, 2).map((result) => result.token));
    expect((await resultsOf({ auth_rule_token: rule.token, has_actions: false })).map((result) => result.token)).toEqual([results[2].token]);
    expect((await resultsOf({ event_token: results[1].event_token })).map((result) => result.token)).toEqual([results[1].token]);
    expect(await resultsOf({ auth_rule_token: rule.token, begin: new Date(Date.parse(results[2].evaluation_time) + 1000).toISOString() })).toEqual([]);

    const days = [...new Set(results.map((result) => result.evaluation_time.slice(0, 10)))].sort();
    const report = await client.authRules.v2.retrieveReport(rule.token, { begin: days[0], end: days[days.length - 1] });
    expect(report).toMatchObject({ auth_rule_token: rule.token, begin: days[0], end: days[days.length - 1] });
    const counted: Record<string, number> = {};
    for (const day of report.daily_statistics) {
      for (const version of day.versions) {
        for (const [action, count] of Object.entries(version.action_counts)) counted[`${version.state} ${version.version} ${action}`] = (counted[`${version.state} ${version.version} ${action}`] ?? 0) + count;
      }
    }
    const expected: Record<string, number> = {};
    for (const result of results) {
      const key = `${result.mode === 'ACTIVE' ? 'ACTIVE' : 'SHADOW'} ${result.rule_version} ${result.actions[0]?.type ?? 'NO_ACTION'}`;
      expected[key] = (expected[key] ?? 0) + 1;
    }
    expect(counted).toEqual(expected);
    expect(counted).toEqual({ 'SHADOW 1 DECLINE': 1, 'ACTIVE 1 DECLINE': 1, 'ACTIVE 1 NO_ACTION': 1 });
    const examples = report.daily_statistics.flatMap((day) => day.versions.flatMap((version) => version.examples.map((example) => example.event_token)));
    expect(examples.sort()).toEqual(results.map((result) => result.event_token).sort());

    expect(await statusOf(client.authRules.v2.retrieveReport(rule.token, { begin: '2026-01-01', end: '2026-03-01' }))).toBe(400);
    expect(await statusOf(client.authRules.v2.retrieveReport('8b1f4f37-3c1e-4f8e-9b1a-5d6c7e8f9a0b', { begin: days[0], end: days[0] }))).toBe(404);
  });

  it("shows a card velocity limit's counters, which change with each approval and not with a decline", async () => {
    const card = await client.cards.create({ type: 'VIRTUAL' });
    const rule = await client.authRules.v2.create({ type: 'VELOCITY_LIMIT', card_tokens: [card.token], parameters: { scope: 'CARD', period: { type: 'CUSTOM', duration: 3600 }, limit_count: 2 } });
    await client.authRules.v2.promote(rule.token);
    const features = async () => (await client.authRules.v2.retrieveFeatures(rule.token, { card_token: card.token })).features;
    const buy = (amount: number) => statusOf(client.transactions.simulateAuthorization({ amount, descriptor: 'SHOP', pan: card.pan! }));

    expect(await features()).toEqual([{ scope: 'CARD', period: { type: 'CUSTOM', duration: 3600 }, filters: {}, value: { count: 0, amount: 0 } }]);
    expect(await buy(500)).toBe(200);
    expect((await features())[0].value).toEqual({ count: 1, amount: 500 });
    expect(await buy(700)).toBe(200);
    expect((await features())[0].value).toEqual({ count: 2, amount: 1200 });
    // The limit is reached: the next one is declined, and a decline counts nothing.
    expect(await buy(100)).toBe(422);
    expect((await features())[0].value).toEqual({ count: 2, amount: 1200 });

    expect(await statusOf(client.authRules.v2.retrieveFeatures(rule.token))).toBe(400);
  });

  it("shows an account velocity limit's counter over every card of the program, and enforces it across them", async () => {
    const { apiKey, programToken } = await t.createProgram('account-velocity');
    const own = new Lithic({ apiKey, baseURL: t.baseUrl, maxRetries: 0 });
    const [first, second] = await Promise.all([own.cards.create({ type: 'VIRTUAL' }), own.cards.create({ type: 'VIRTUAL' })]);
    const rule = await own.authRules.v2.create({ type: 'VELOCITY_LIMIT', account_tokens: [programToken], parameters: { scope: 'ACCOUNT', period: { type: 'DAY' }, limit_amount: 1000 } });
    await own.authRules.v2.promote(rule.token);
    const value = async () => (await own.authRules.v2.retrieveFeatures(rule.token, { account_token: programToken })).features.map((feature) => [feature.scope, feature.value]);
    const buy = (card: { pan?: string }, amount: number) => statusOf(own.transactions.simulateAuthorization({ amount, descriptor: 'SHOP', pan: card.pan! }));

    expect(await value()).toEqual([['ACCOUNT', { count: 0, amount: 0 }]]);
    expect(await buy(first, 600)).toBe(200);
    expect(await value()).toEqual([['ACCOUNT', { count: 1, amount: 600 }]]);
    // The other card's spend counts against the same limit: 600 + 500 is over 1000.
    expect(await buy(second, 500)).toBe(422);
    expect(await buy(second, 400)).toBe(200);
    expect(await value()).toEqual([['ACCOUNT', { count: 2, amount: 1000 }]]);
    expect(await statusOf(own.authRules.v2.retrieveFeatures(rule.token, { account_token: '8b1f4f37-3c1e-4f8e-9b1a-5d6c7e8f9a0b' }))).toBe(404);
  });
});
