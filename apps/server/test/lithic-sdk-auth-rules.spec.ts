import Lithic from 'lithic';
import { ledgerForTests } from './test-ledger';

/**
 * `client.authRules.v2` of the official SDK against the service: every method but backtests, results,
 * features and report. Each write is checked by the reads after it (retrieve, list, listVersions).
 */

const blockGambling = { action: 'DECLINE' as const, conditions: [{ attribute: 'MCC' as const, operation: 'IS_ONE_OF' as const, value: ['7995'] }] };
const blockCasinos = { action: 'DECLINE' as const, conditions: [{ attribute: 'MCC' as const, operation: 'IS_ONE_OF' as const, value: ['7995', '7800'] }] };

describe('the lithic SDK: auth rules v2', () => {
  const t = ledgerForTests();
  let client: Lithic;
  beforeAll(() => {
    client = new Lithic({ apiKey: t.apiKey, baseURL: t.baseUrl, maxRetries: 0 });
  });

  it('creates a rule in draft, promotes it, drafts again and shows its versions', async () => {
    const created = await client.authRules.v2.create({ type: 'CONDITIONAL_ACTION', name: 'No gambling', program_level: true, parameters: blockGambling });
    expect(created).toMatchObject({
      name: 'No gambling',
      type: 'CONDITIONAL_ACTION',
      state: 'ACTIVE',
      program_level: true,
      event_stream: 'AUTHORIZATION',
      lithic_managed: false,
      card_tokens: [],
      account_tokens: [],
      excluded_card_tokens: [],
      current_version: null,
      draft_version: { version: 1, parameters: blockGambling, state: 'SHADOWING', error: null },
    });
    expect(await client.authRules.v2.retrieve(created.token)).toEqual(created);

    const promoted = await client.authRules.v2.promote(created.token);
    expect(promoted).toMatchObject({ current_version: { version: 1, parameters: blockGambling }, draft_version: null });

    const drafted = await client.authRules.v2.draft(created.token, { parameters: blockCasinos });
    expect(drafted).toMatchObject({ current_version: { version: 1 }, draft_version: { version: 2, parameters: blockCasinos } });

    const versions = await client.authRules.v2.listVersions(created.token);
    expect(versions.data.map(({ version, state }) => [version, state])).toEqual([
      [2, 'SHADOW'],
      [1, 'ACTIVE'],
    ]);

    const discarded = await client.authRules.v2.draft(created.token, { parameters: null });
    expect(discarded.draft_version).toBeNull();
  });

  it('updates the name, the scope and the state; only INACTIVE is accepted as a state', async () => {
    const card = await client.cards.create({ type: 'VIRTUAL' });
    const rule = await client.authRules.v2.create({ type: 'MERCHANT_LOCK', card_tokens: [card.token], parameters: { merchants: [{ descriptor: 'COFFEE SHOP' }] } });
    expect(rule).toMatchObject({ card_tokens: [card.token], program_level: false, name: null });

    const updated = await client.authRules.v2.update(rule.token, { name: 'Coffee only', state: 'INACTIVE' });
    expect(updated).toMatchObject({ name: 'Coffee only', state: 'INACTIVE', card_tokens: [card.token] });
    expect((await client.authRules.v2.listVersions(rule.token)).data.map((version) => version.state)).toEqual(['INACTIVE']);

    const status = await client.authRules.v2.update(rule.token, { state: 'ACTIVE' } as never).then(
      () => 200,
      (error: unknown) => (error as { status: number }).status,
    );
    expect(status).toBe(400);
  });

  it('lists the rules oldest first with cursors, filtered by card and scope, and forgets a deleted one', async () => {
    const card = await client.cards.create({ type: 'VIRTUAL' });
    const other = await client.cards.create({ type: 'VIRTUAL' });
    const forCard = await client.authRules.v2.create({ type: 'CONDITIONAL_BLOCK', card_tokens: [card.token], parameters: { conditions: [{ attribute: 'COUNTRY', operation: 'IS_ONE_OF', value: ['FRA'] }] } });
    const velocity = await client.authRules.v2.create({
      type: 'VELOCITY_LIMIT',
      program_level: true,
      excluded_card_tokens: [other.token],
      parameters: { scope: 'CARD', period: { type: 'DAY' }, limit_count: 5 },
    });

    const all = [];
    for await (const rule of client.authRules.v2.list({ page_size: 1 })) all.push(rule.token);
    expect(all.slice(-2)).toEqual([forCard.token, velocity.token]);

    const onCard = [];
    for await (const rule of client.authRules.v2.list({ card_token: card.token })) onCard.push(rule.token);
    expect(onCard).toEqual(expect.arrayContaining([forCard.token, velocity.token]));
    const onOther = [];
    for await (const rule of client.authRules.v2.list({ card_token: other.token })) onOther.push(rule.token);
    expect(onOther).not.toContain(forCard.token);
    expect(onOther).not.toContain(velocity.token);
    const cardLevel = [];
    for await (const rule of client.authRules.v2.list({ scope: 'CARD' })) cardLevel.push(rule.token);
    expect(cardLevel).toContain(forCard.token);
    expect(cardLevel).not.toContain(velocity.token);

    await client.authRules.v2.delete(forCard.token);
    const left = [];
    for await (const rule of client.authRules.v2.list()) left.push(rule.token);
    expect(left).not.toContain(forCard.token);
    expect(left).toContain(velocity.token);
    const gone = await client.authRules.v2.retrieve(forCard.token).then(
      () => 200,
      (error: unknown) => (error as { status: number }).status,
    );
    expect(gone).toBe(404);
  });

  it('a promoted rule that blocks an MCC declines the next authorization there and approves another; in shadow it declines nothing', async () => {
    const card = await client.cards.create({ type: 'VIRTUAL' });
    const noCigars = { action: 'DECLINE' as const, conditions: [{ attribute: 'MCC' as const, operation: 'IS_ONE_OF' as const, value: ['5993'] }] };
    const rule = await client.authRules.v2.create({ type: 'CONDITIONAL_ACTION', name: 'No cigars', card_tokens: [card.token], parameters: noCigars });
    const statusOf = (answer: Promise<unknown>) =>
      answer.then(
        () => 200,
        (error: unknown) => (error as { status: number }).status,
      );
    const atCigarShop = () => client.transactions.simulateAuthorization({ amount: 1000, descriptor: 'CIGAR SHOP', mcc: '5993', pan: card.pan! });

    // In shadow (a new rule's draft), the cigar shop is approved.
    const shadowed = await atCigarShop();
    expect((await client.transactions.retrieve(shadowed.token!)).result).toBe('APPROVED');

    await client.authRules.v2.promote(rule.token);
    expect(await statusOf(atCigarShop())).toBe(422);
    const declined = [];
    for await (const transaction of client.transactions.list({ card_token: card.token, result: 'DECLINED' })) declined.push(transaction);
    expect(declined.map((transaction) => transaction.result)).toEqual(['MERCHANT_BLACKLIST']);
    const [refused] = declined;
    expect(refused.events![0]).toMatchObject({ type: 'AUTHORIZATION', detailed_results: ['AUTH_RULE'], rule_results: [{ auth_rule_token: rule.token, name: 'No cigars', result: 'AUTH_RULE', explanation: 'conditions met: DECLINE' }] });
    // The spec's card inside the transaction (the SDK's type has none): every enforced rule that ran, the earlier program-wide one too.
    const cardOf = (transaction: unknown) => (transaction as { card: { auth_rule_tokens: string[] } }).card;
    expect(cardOf(refused).auth_rule_tokens).toContain(rule.token);
    // The shadow run is the rule's own record, not the approved transaction's.
    expect((await client.transactions.retrieve(shadowed.token!)).events![0]).toMatchObject({ detailed_results: ['APPROVED'], rule_results: [] });

    const coffee = await client.transactions.simulateAuthorization({ amount: 1000, descriptor: 'COFFEE SHOP', mcc: '5812', pan: card.pan! });
    const approved = await client.transactions.retrieve(coffee.token!);
    expect(approved.result).toBe('APPROVED');
    expect(cardOf(approved).auth_rule_tokens).toContain(rule.token);
    expect(approved.events![0]).toMatchObject({ detailed_results: ['APPROVED'], rule_results: [] });

    // Deactivated, it declines nothing again.
    await client.authRules.v2.update(rule.token, { state: 'INACTIVE' });
    expect(await statusOf(atCigarShop())).toBe(200);
  });

  describe('velocity limits under 64 parallel authorizations: exactly the count and the amount are approved', () => {
    const PARALLEL = 64;
    type Limits = { limit_count?: number; limit_amount?: number };
    /**
     * A program of its own per burst (an ACCOUNT limit counts every card of its program), its limit
     * promoted, then every authorization sent at once, over `cards` cards in turn.
     */
    const burst = async (scope: 'CARD' | 'ACCOUNT', limits: Limits, cardCount: number) => {
      const { apiKey, programToken } = await t.createProgram(`velocity-${scope}-${Object.keys(limits).join()}`);
      const own = new Lithic({ apiKey, baseURL: t.baseUrl, maxRetries: 0 });
      const cards = await Promise.all(Array.from({ length: cardCount }, () => own.cards.create({ type: 'VIRTUAL' })));
      const bound = scope === 'CARD' ? { card_tokens: cards.map((card) => card.token) } : { account_tokens: [programToken] };
      const rule = await own.authRules.v2.create({ type: 'VELOCITY_LIMIT', ...bound, parameters: { scope, period: { type: 'CUSTOM', duration: 3600 }, ...limits } });
      await own.authRules.v2.promote(rule.token);
      const answers = await Promise.all(
        Array.from({ length: PARALLEL }, (_, index) => t.call('POST', '/v1/simulate/authorize', { apiKey, body: { pan: cards[index % cardCount].pan, amount: 100, descriptor: 'Burst' } })),
      );
      expect(answers.filter((answer) => answer.status !== 200 && answer.status !== 422).map((answer) => [answer.status, answer.body])).toEqual([]);
      const declined = answers.filter((answer) => answer.status === 422).map((answer) => /\((\w+)\)/.exec(answer.body.message)?.[1]);
      return { approved: answers.filter((answer) => answer.status === 200).length, declined: new Set(declined) };
    };

    it.each([
      ['CARD', 'count', { limit_count: 7 }, 7],
      ['CARD', 'amount', { limit_amount: 1250 }, 12],
      ['ACCOUNT', 'count', { limit_count: 9 }, 9],
      ['ACCOUNT', 'amount', { limit_amount: 2050 }, 20],
    ] as const)('%s scope, by %s', async (scope, _by, limits, approved) => {
      // A card limit on one card; an account limit over eight cards, whose writes race on the account's counter.
      expect(await burst(scope, limits, scope === 'CARD' ? 1 : 8)).toEqual({ approved, declined: new Set(['USER_TRANSACTION_LIMIT']) });
    });
  });

  it('refuses what it cannot evaluate, naming the field', async () => {
    const refusal = await client.authRules.v2
      .create({ type: 'CONDITIONAL_ACTION', program_level: true, parameters: { action: 'DECLINE', conditions: [{ attribute: 'RISK_SCORE', operation: 'IS_GREATER_THAN', value: 500 }] } })
      .then(
        () => null,
        (error: unknown) => error as { status: number; error: { message?: string } },
      );
    expect(refusal?.status).toBe(400);
    expect(JSON.stringify(refusal?.error)).toContain('parameters.conditions[0].attribute');
  });
});
