import Lithic from 'lithic';
import { ledgerForTests } from './test-ledger';

/**
 * `client.authRules.v2.backtests` of the official SDK against the service: a history made with
 * simulated authorizations, a backtest of a rule's draft over it, and then the draft promoted and the
 * same authorizations made again: what they get is what the backtest said.
 */

const noCigars = { action: 'DECLINE' as const, conditions: [{ attribute: 'MCC' as const, operation: 'IS_ONE_OF' as const, value: ['5993'] }] };
const DAY_MS = 86_400_000;

describe('the lithic SDK: auth rule backtests', () => {
  const t = ledgerForTests();

  /** A program of its own: a backtest replays every card of the program. */
  async function ownProgram(name: string): Promise<{ client: Lithic; programToken: string }> {
    const { apiKey, programToken } = await t.createProgram(name);
    return { client: new Lithic({ apiKey, baseURL: t.baseUrl, maxRetries: 0 }), programToken };
  }
  const ownClient = async (name: string) => (await ownProgram(name)).client;

  /** What a rule's draft said at each of the program's authorizations, as the ledger recorded it (its shadow results). */
  async function shadowDecisions(programToken: string, authRuleToken: string): Promise<string[]> {
    const { rows } = await t.pool.query<{ data: { ruleResults?: { authRuleToken: string; mode: string; decision: string }[] } }>(
      `select data from events where event_type in ('CardAuthorizationApproved', 'CardAuthorizationDeclined') and metadata->>'programToken' = $1 order by transaction_id, global_position`,
      [programToken],
    );
    return rows.flatMap(({ data }) => (data.ruleResults ?? []).filter((result) => result.authRuleToken === authRuleToken && result.mode === 'SHADOW').map((result) => result.decision));
  }

  /** Authorizes each purchase in turn and answers what each got: APPROVED or the decline's status. */
  async function authorize(client: Lithic, purchases: readonly { pan: string; mcc: string }[]): Promise<string[]> {
    const decisions: string[] = [];
    for (const { pan, mcc } of purchases) {
      decisions.push(
        await client.transactions.simulateAuthorization({ amount: 500, descriptor: mcc === '5993' ? 'CIGAR SHOP' : 'COFFEE SHOP', mcc, pan }).then(
          () => 'APPROVED',
          (error: unknown) => `DECLINED ${(error as { status: number }).status}`,
        ),
      );
    }
    return decisions;
  }

  const count = (decisions: readonly string[], decision: string) => decisions.filter((one) => one.startsWith(decision)).length;

  it("reports what a draft would have decided on the program's history, and the promoted draft decides exactly that", async () => {
    const client = await ownClient('backtest-effect');
    const [one, two] = [await client.cards.create({ type: 'VIRTUAL' }), await client.cards.create({ type: 'VIRTUAL' })];
    const purchases = [
      { pan: one.pan!, mcc: '5993' },
      { pan: one.pan!, mcc: '5812' },
      { pan: two.pan!, mcc: '5993' },
      { pan: one.pan!, mcc: '5993' },
      { pan: two.pan!, mcc: '5812' },
      { pan: two.pan!, mcc: '5993' },
    ];
    expect(await authorize(client, purchases)).toEqual(Array(6).fill('APPROVED'));

    const rule = await client.authRules.v2.create({ type: 'CONDITIONAL_ACTION', program_level: true, parameters: noCigars });
    const before = Date.now();
    const { backtest_token } = await client.authRules.v2.backtests.create(rule.token, {});
    const report = await client.authRules.v2.backtests.retrieve(backtest_token!, { auth_rule_token: rule.token });
    expect(report.backtest_token).toBe(backtest_token);
    expect(report.results.current_version).toBeNull();
    expect(report.results.draft_version).toMatchObject({ version: 1, approved: 2, declined: 4, challenged: 0 });
    expect(report.results.draft_version!.examples!.map((example) => example.decision)).toEqual(['DECLINED', 'DECLINED', 'DECLINED', 'DECLINED', 'APPROVED', 'APPROVED']);
    // The defaults: the 30 days up to the request.
    const { start, end } = report.simulation_parameters;
    expect(Date.parse(end)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(end) - Date.parse(start)).toBe(30 * DAY_MS);

    await client.authRules.v2.promote(rule.token);
    const enforced = await authorize(client, purchases);
    expect({ approved: count(enforced, 'APPROVED'), declined: count(enforced, 'DECLINED') }).toEqual({ approved: 2, declined: 4 });
    expect(new Set(enforced.filter((decision) => decision !== 'APPROVED'))).toEqual(new Set(['DECLINED 422']));

    // The promoted version is now the current one: a new backtest reports it, over both rounds.
    const again = await client.authRules.v2.backtests.create(rule.token, {});
    const second = await client.authRules.v2.backtests.retrieve(again.backtest_token!, { auth_rule_token: rule.token });
    expect(second.results).toMatchObject({ current_version: { version: 1, approved: 4, declined: 8 }, draft_version: null });
  });

  it('replays the card history as it stood at each authorization: a velocity draft reports what enforcing it then decides', async () => {
    const { client, programToken } = await ownProgram('backtest-velocity');
    const cards = [await client.cards.create({ type: 'VIRTUAL' }), await client.cards.create({ type: 'VIRTUAL' })];
    const purchases = Array.from({ length: 20 }, (_, i) => ({ pan: cards[i % 2].pan!, mcc: '5812' }));
    const rule = await client.authRules.v2.create({ type: 'VELOCITY_LIMIT', program_level: true, parameters: { scope: 'CARD', period: { type: 'CUSTOM', duration: 3600 }, limit_count: 3 } });
    expect(count(await authorize(client, purchases), 'APPROVED')).toBe(20);

    const { backtest_token } = await client.authRules.v2.backtests.create(rule.token, {});
    const report = await client.authRules.v2.backtests.retrieve(backtest_token!, { auth_rule_token: rule.token });
    expect(report.results.draft_version).toMatchObject({ approved: 6, declined: 14 });
    // The same decisions the draft recorded in shadow at each authorization, one by one, as it ran.
    const recorded = await shadowDecisions(programToken, rule.token);
    expect(recorded).toHaveLength(20);
    expect({ approved: count(recorded, 'APPROVED'), declined: count(recorded, 'DECLINED') }).toEqual({ approved: 6, declined: 14 });

    await client.authRules.v2.promote(rule.token);
    const fresh = [await client.cards.create({ type: 'VIRTUAL' }), await client.cards.create({ type: 'VIRTUAL' })];
    const enforced = await authorize(client, purchases.map((_, i) => ({ pan: fresh[i % 2].pan!, mcc: '5812' })));
    expect({ approved: count(enforced, 'APPROVED'), declined: count(enforced, 'DECLINED') }).toEqual({ approved: 6, declined: 14 });
  });

  it('takes a window, refuses one that closes before it opens, and shows a backtest only under its own rule', async () => {
    const client = await ownClient('backtest-window');
    const card = await client.cards.create({ type: 'VIRTUAL' });
    await authorize(client, [{ pan: card.pan!, mcc: '5993' }]);
    const rule = await client.authRules.v2.create({ type: 'CONDITIONAL_ACTION', program_level: true, parameters: noCigars });
    const other = await client.authRules.v2.create({ type: 'CONDITIONAL_ACTION', program_level: true, parameters: noCigars });

    const earlier = { start: new Date(Date.now() - 3 * DAY_MS).toISOString(), end: new Date(Date.now() - DAY_MS).toISOString() };
    const { backtest_token } = await client.authRules.v2.backtests.create(rule.token, earlier);
    const report = await client.authRules.v2.backtests.retrieve(backtest_token!, { auth_rule_token: rule.token });
    expect(report.simulation_parameters).toEqual(earlier);
    expect(report.results.draft_version).toMatchObject({ approved: 0, declined: 0, examples: [] });

    const status = (answer: Promise<unknown>) => answer.then(() => 200, (error: unknown) => (error as { status: number }).status);
    expect(await status(client.authRules.v2.backtests.create(rule.token, { start: earlier.end, end: earlier.start }))).toBe(400);
    expect(await status(client.authRules.v2.backtests.retrieve(backtest_token!, { auth_rule_token: other.token }))).toBe(404);
    const stranger = await ownClient('backtest-stranger');
    expect(await status(stranger.authRules.v2.backtests.create(rule.token, {}))).toBe(404);
    expect(await status(stranger.authRules.v2.backtests.retrieve(backtest_token!, { auth_rule_token: rule.token }))).toBe(404);
  });
});
