import type { Page } from 'playwright-core';
import { eventually } from '@ledger/test-support';
import { authorizeInPage, DashboardInBrowser, describeWithChromium, expectText, openPage, outcomeInPage, shoot, signIn, startDashboardInBrowser } from './dashboard-browser';
import type { TestLedger } from './test-ledger';

/**
 * The auth rules pages and the simulate page's newer kinds of message in real Chromium: a rule
 * written in the page (no JSON), promoted and deactivated there, and its effect seen on the next
 * authorization made in the simulate page.
 */
describeWithChromium('auth rules in the dashboard, in Chromium', () => {
  let browser: DashboardInBrowser;
  let t: TestLedger;
  let page: Page;
  let card: { token: string; pan: string; last_four: string };

  beforeAll(async () => {
    browser = await startDashboardInBrowser();
    ({ t, page } = browser);
    card = (await t.call('POST', '/v1/cards', { body: { type: 'VIRTUAL', memo: 'Rules card' } })).body;
    await signIn(page, t);
  }, 120_000);

  afterAll(async () => {
    await browser?.stop();
  });

  const ruleRow = (name: string) => page.getByRole('table', { name: "The program's rules" }).getByRole('row').filter({ hasText: name });

  async function ruleNamed(name: string): Promise<any> {
    const rules = await t.call('GET', '/v2/auth_rules?page_size=100');
    return rules.body.data.find((rule: any) => rule.name === name);
  }

  it('writes a conditional rule in the form; promoted it declines, deactivated it stops', async () => {
    await openPage(page, t, 'rules');
    await page.getByText('No rules yet').waitFor();
    await page.getByLabel('Rule name').fill('No big casino spend');
    await page.getByLabel('Rule type').selectOption('CONDITIONAL_ACTION');
    await page.getByLabel('Applies to').selectOption('program');
    await page.getByLabel('Attribute 1').selectOption('DESCRIPTOR');
    await page.getByLabel('Operation 1').selectOption('MATCHES');
    await page.getByLabel('Value 1').fill('Casino');
    await page.getByRole('button', { name: 'Add condition' }).click();
    await page.getByLabel('Attribute 2').selectOption('TRANSACTION_AMOUNT');
    await page.getByLabel('Operation 2').selectOption('IS_GREATER_THAN');
    await page.getByLabel('Value 2').fill('20.00');
    await expectText(page.locator('output'), 'Decline when descriptor matches Casino and transaction amount is more than $20.00');
    await shoot(page, 'rules-form');
    await page.getByRole('button', { name: 'Create rule (as a draft)' }).click();
    await page.getByRole('status').filter({ hasText: 'Created rule No big casino spend' }).waitFor();

    const created = await ruleNamed('No big casino spend');
    expect(created).toEqual(
      expect.objectContaining({
        type: 'CONDITIONAL_ACTION',
        program_level: true,
        current_version: null,
        draft_version: expect.objectContaining({
          version: 1,
          parameters: {
            action: 'DECLINE',
            conditions: [
              { attribute: 'DESCRIPTOR', operation: 'MATCHES', value: 'Casino' },
              { attribute: 'TRANSACTION_AMOUNT', operation: 'IS_GREATER_THAN', value: 2000 },
            ],
          },
        }),
      }),
    );
    await expectText(ruleRow('No big casino spend'), 'v1 Decline when descriptor matches Casino and transaction amount is more than $20.00');

    // A draft runs in shadow: it declines nothing.
    expect(await authorizeInPage(page, t, '25.00', 'Casino Royale')).toContain('Done');

    await openPage(page, t, 'rules');
    await page.getByRole('button', { name: 'Promote draft of No big casino spend' }).click();
    // A new rule is ACTIVE with only a draft; promoted, the draft is its current version.
    await expectText(ruleRow('No big casino spend'), 'no draft');
    await shoot(page, 'rules');
    const declined = await authorizeInPage(page, t, '25.00', 'Casino Royale');
    expect(declined).toContain('422');
    expect(declined).toContain('MERCHANT_BLACKLIST');
    expect(await authorizeInPage(page, t, '10.00', 'Casino Royale')).toContain('Done');
    const declines = await t.call('GET', `/v1/transactions?card_token=${card.token}&result=DECLINED`);
    expect(declines.body.data).toEqual([expect.objectContaining({ result: 'MERCHANT_BLACKLIST', amount: 2500 })]);
    expect(declines.body.data[0].events[0].rule_results).toEqual([expect.objectContaining({ auth_rule_token: created.token })]);
    await openPage(page, t, `transactions/${declines.body.data[0].token}`);
    await expectText(page.getByRole('row').filter({ hasText: 'AUTHORIZATION' }), 'No big casino spend (AUTH_RULE)');
    expect(declines.body.data[0].card.auth_rule_tokens).toEqual([created.token]);
    await page.getByRole('region', { name: 'Casino Royale' }).getByRole('link', { name: created.token }).waitFor();
    await shoot(page, 'transaction-rule');

    await openPage(page, t, `cards/${card.token}`);
    const applying = page.getByRole('table', { name: 'Auth rules that apply' });
    await expectText(applying, 'No big casino spend');
    await expectText(applying, 'v1 Decline when descriptor matches Casino');
    await shoot(page, 'card-rules');

    await openPage(page, t, 'rules');
    await page.getByRole('button', { name: 'Deactivate No big casino spend' }).click();
    await expectText(ruleRow('No big casino spend'), 'INACTIVE');
    expect((await ruleNamed('No big casino spend')).state).toBe('INACTIVE');
    expect(await authorizeInPage(page, t, '25.00', 'Casino Royale')).toContain('Done');
  });

  it('writes a velocity limit for chosen cards without JSON, and it limits the next authorization', async () => {
    await openPage(page, t, 'rules');
    await page.getByLabel('Rule name').fill('One a day');
    await page.getByLabel('Rule type').selectOption('VELOCITY_LIMIT');
    await page.getByLabel('Applies to').selectOption('cards');
    await page.getByLabel(`•••• ${card.last_four} Rules card`).check();
    await page.getByLabel('Most authorizations').fill('1');
    await page.getByLabel('Per', { exact: true }).selectOption('CUSTOM');
    await page.getByLabel('Trailing seconds').fill('3600');
    await page.getByRole('button', { name: 'Create rule (as a draft)' }).click();
    await page.getByRole('status').filter({ hasText: 'Created rule One a day' }).waitFor();
    const created = await ruleNamed('One a day');
    expect(created).toEqual(expect.objectContaining({ program_level: false, card_tokens: [card.token] }));
    expect(created.draft_version.parameters).toEqual({ scope: 'CARD', period: { type: 'CUSTOM', duration: 3600 }, limit_count: 1, limit_amount: null });
    await expectText(ruleRow('One a day'), 'At most 1 authorizations per card in any 3600 seconds');

    await page.getByRole('button', { name: 'Promote draft of One a day' }).click();
    await expectText(ruleRow('One a day'), 'no draft');
    // The earlier test's approvals are in the last hour: the next one is over the limit.
    const declined = await authorizeInPage(page, t, '1.00', 'Casino Royale');
    expect(declined).toContain('USER_TRANSACTION_LIMIT');

    await openPage(page, t, `rules/${created.token}`);
    await page.getByRole('heading', { name: 'Versions' }).waitFor();
    await expectText(page.getByRole('table', { name: 'Versions' }), 'ACTIVE');
    await page.getByRole('button', { name: 'Deactivate One a day' }).click();
    await expectText(page.getByRole('region', { name: 'What it does' }), 'INACTIVE');
    expect(await authorizeInPage(page, t, '1.00', 'Casino Royale')).toContain('Done');
  });

  it('writes a merchant lock as lines of merchants, and a new draft on the rule page', async () => {
    await openPage(page, t, 'rules');
    await page.getByLabel('Rule name').fill('Only the usual places');
    await page.getByLabel('Rule type').selectOption('MERCHANT_LOCK');
    await page.getByLabel('Applies to').selectOption('account');
    await page.getByLabel(/^Allowed merchants/).fill('Corner Shop\nid: 4445556667');
    await page.getByRole('button', { name: 'Create rule (as a draft)' }).click();
    await page.getByRole('status').filter({ hasText: 'Created rule Only the usual places' }).waitFor();
    const created = await ruleNamed('Only the usual places');
    expect(created.account_tokens).toHaveLength(1);
    expect(created.draft_version.parameters).toEqual({ merchants: [{ descriptor: 'Corner Shop' }, { merchant_id: '4445556667' }] });
    await expectText(ruleRow('Only the usual places'), 'Only at "Corner Shop", merchant id 4445556667');

    await openPage(page, t, `rules/${created.token}`);
    // The new draft starts from the rule as it stands.
    await eventually('the draft form to show the rule', async () => (await page.getByLabel(/^Allowed merchants/).inputValue()) === 'Corner Shop\nid: 4445556667');
    await page.getByLabel(/^Allowed merchants/).fill('Corner Shop\nCasino Royale');
    await page.getByRole('button', { name: 'Save as draft' }).click();
    await page.getByRole('status').filter({ hasText: 'Draft v2 saved' }).waitFor();
    await expectText(page.getByRole('table', { name: 'Versions' }), 'Only at "Corner Shop", "Casino Royale"');
    expect((await t.call('GET', `/v2/auth_rules/${created.token}`)).body.draft_version).toEqual(expect.objectContaining({ version: 2, parameters: { merchants: [{ descriptor: 'Corner Shop' }, { descriptor: 'Casino Royale' }] } }));
    await shoot(page, 'rule');
  });

  it('sends the newer kinds of message from the simulate page: financial authorization, expiry, credit advice', async () => {
    await openPage(page, t, 'simulate');
    await page.getByLabel('Kind of message').selectOption('FINANCIAL_AUTHORIZATION');
    await page.getByLabel('Amount', { exact: true }).first().fill('3.00');
    await page.getByLabel('Descriptor', { exact: true }).first().fill('Corner Shop');
    await page.getByLabel('MCC', { exact: true }).fill('5411');
    await page.getByLabel('Merchant country').fill('USA');
    await page.getByRole('button', { name: 'Authorize' }).click();
    expect(await eventuallyOutcome()).toContain('Done');
    const financial = await latestTransaction();
    expect(financial).toEqual(expect.objectContaining({ status: 'SETTLING', amount: 300, merchant: expect.objectContaining({ mcc: '5411' }) }));

    await page.getByLabel('Kind of message').selectOption('AUTHORIZATION');
    expect(await authorizeInPage(page, t, '2.00', 'Corner Shop')).toContain('Done');
    const pending = await latestTransaction();
    expect(pending.status).toBe('PENDING');
    await page.getByLabel('Transaction token').fill(pending.token);
    await page.getByRole('button', { name: 'Expire' }).click();
    await eventually('the authorization to expire', async () => (await t.call('GET', `/v1/transactions/${pending.token}`)).body.status === 'EXPIRED');

    await page.getByLabel('PAN', { exact: true }).fill(card.pan);
    await page.getByLabel('Amount', { exact: true }).last().fill('4.00');
    await page.getByRole('button', { name: 'Credit authorization advice' }).click();
    const credit = await eventually('the credit to be recorded', async () => {
      const latest = await latestTransaction();
      return latest.amount === -400 && latest;
    });
    expect(credit.status).toBe('PENDING');
    await shoot(page, 'simulate-kinds');
  });

  it('runs a backtest of a new draft from the rule page and shows the report', async () => {
    const rule = await ruleNamed('No big casino spend');
    await openPage(page, t, `rules/${rule.token}`);
    // The draft form starts from v1; the draft lowers the amount to 5.00.
    await eventually('the draft form to show the rule', async () => (await page.getByLabel('Value 2').inputValue()) === '20.00');
    await page.getByLabel('Value 2').fill('5.00');
    await page.getByRole('button', { name: 'Save as draft' }).click();
    await page.getByRole('status').filter({ hasText: 'Draft v2 saved' }).waitFor();
    await page.getByRole('button', { name: 'Run backtest' }).click();
    const backtest = page.getByRole('region', { name: 'Backtest', exact: true });
    const report = page.getByRole('region', { name: 'Backtest report' });
    // The report, or the error the page shows instead of it.
    await report.or(backtest.getByRole('alert')).first().waitFor();
    expect(await backtest.innerText()).toContain('Draft (v2)');
    // Every Casino Royale authorization above 5.00 so far: three of 25.00 and one of 10.00.
    const declined = await report.getByRole('row').filter({ hasText: 'Draft (v2)' }).getByRole('cell').nth(2).innerText();
    expect(Number(declined)).toBe(4);
    await shoot(page, 'rule-backtest');
  });

  async function eventuallyOutcome(): Promise<string> {
    return eventually('the page to show the outcome', async () => (await page.locator('#main').getByRole('alert').or(page.locator('#main').getByRole('status').filter({ hasText: 'Done' })).count()) > 0 && outcomeInPage(page));
  }

  async function latestTransaction(): Promise<any> {
    // Lists are oldest first: the latest is the last.
    const list = await t.call('GET', `/v1/transactions?card_token=${card.token}&page_size=100`);
    return list.body.data[list.body.data.length - 1];
  }
});
