import { Page } from 'playwright-core';
import { eventually, LocalReceiver } from '@ledger/test-support';
import { authorizeInPage as authorizeIn, DashboardInBrowser, describeWithChromium, expectText, openPage, shoot as shootPage, startDashboardInBrowser } from './dashboard-browser';
import { TestLedger } from './test-ledger';

/**
 * The built dashboard in real headless Chromium against the whole service (dashboard-browser.ts):
 * sign-in, cards, simulations, the test clock, webhooks, the account and transactions.
 */

describeWithChromium('the dashboard in Chromium', () => {
  let browser: DashboardInBrowser;
  let t: TestLedger;
  let page: Page;
  let receiver: LocalReceiver;

  beforeAll(async () => {
    receiver = await new LocalReceiver().start();
    browser = await startDashboardInBrowser({ WEBHOOK_POLL_MS: '100' });
    ({ t, page } = browser);
  }, 120_000);

  afterAll(async () => {
    await browser?.stop();
    await receiver?.stop();
  });

  const shoot = (name: string) => shootPage(page, name);
  const open = (route: string) => openPage(page, t, route);
  const authorizeInPage = (amount: string, descriptor: string) => authorizeIn(page, t, amount, descriptor);

  let cardToken: string;

  it('asks for the api-key once, then keeps it for the tab', async () => {
    await page.goto(`${t.baseUrl}/dashboard`);
    await page.getByLabel('Api-key').fill('not-a-key');
    await page.getByRole('button', { name: 'Open dashboard' }).click();
    await expectText(page.getByRole('alert'), '401');
    await shoot('sign-in');
    await page.getByLabel('Api-key').fill(t.apiKey);
    await page.getByRole('button', { name: 'Open dashboard' }).click();
    await page.getByRole('heading', { name: 'Cards', level: 1 }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Cards', level: 1 }).waitFor();
  });

  it('creates a card, and an authorization over its limit shows the 422 decline', async () => {
    await open('cards');
    await page.getByLabel('Memo', { exact: true }).fill('Browser groceries');
    await page.getByLabel('Spend limit (USD)').fill('10.00');
    await page.getByLabel('Limit window').selectOption('MONTHLY');
    await page.getByRole('button', { name: 'Create card' }).click();
    const created = page.getByRole('status').filter({ hasText: 'Created card' });
    await created.waitFor();
    const cards = await t.call('GET', '/v1/cards?memo=Browser%20groceries');
    expect(cards.body.data).toHaveLength(1);
    cardToken = cards.body.data[0].token;
    expect(cards.body.data[0]).toEqual(expect.objectContaining({ spend_limit: 1000, spend_limit_duration: 'MONTHLY', state: 'OPEN' }));
    await expectText(page.getByRole('row').filter({ hasText: 'Browser groceries' }), '$10.00 monthly');

    expect(await authorizeInPage('6.00', 'Corner Shop')).toContain('Done');
    const declined = await authorizeInPage('4.01', 'Corner Shop');
    expect(declined).toContain('422');
    expect(declined).toContain('USER_TRANSACTION_LIMIT');
    await shoot('simulate');
    const listed = await t.call('GET', `/v1/transactions?card_token=${cardToken}&result=DECLINED`);
    expect(listed.body.data).toEqual([expect.objectContaining({ result: 'USER_TRANSACTION_LIMIT', amount: 401 })]);
  });

  it('shows a transaction made elsewhere without a reload, as money in the merchant currency', async () => {
    await open(`cards/${cardToken}`);
    await page.getByRole('heading', { name: 'Transactions' }).waitFor();
    const marker = await page.evaluate(() => ((globalThis as any).__notReloaded = true));
    const card = await t.call('GET', `/v1/cards/${cardToken}`);
    const answer = await t.call('POST', '/v1/simulate/authorize', { body: { pan: card.body.pan, amount: 250, descriptor: 'Le Café', merchant_currency: 'EUR', merchant_amount: 230 } });
    expect(answer.status).toBe(200);
    await expectText(page.getByRole('row').filter({ hasText: 'Le Café' }), '€2.30');
    expect(await page.evaluate(() => (globalThis as any).__notReloaded)).toBe(marker);
    await expectText(page.locator('.chain').first(), 'linked');
    await shoot('card');
  });

  it('pauses the card from the list', async () => {
    await open('cards');
    const row = page.getByRole('row').filter({ hasText: 'Browser groceries' });
    await row.getByRole('button', { name: /^Pause card ending/ }).click();
    await expectText(row, 'PAUSED');
    expect((await t.call('GET', `/v1/cards/${cardToken}`)).body.state).toBe('PAUSED');
    await shoot('cards');
    await row.getByRole('button', { name: /^Resume card ending/ }).click();
    await expectText(row, 'OPEN');
  });

  it('advances the test clock a month, and the MONTHLY limit frees up', async () => {
    // 6.00 and 2.50 of 10.00 spent this month: 4.00 more is over.
    expect(await authorizeInPage('4.00', 'Corner Shop')).toContain('USER_TRANSACTION_LIMIT');
    await open('clock');
    const before = await page.getByTestId('clock-now').innerText();
    await page.getByRole('button', { name: 'Advance one month' }).click();
    await eventually('the clock to move', async () => (await page.getByTestId('clock-now').innerText()) !== before);
    await shoot('clock');
    expect(await authorizeInPage('4.00', 'Corner Shop')).toContain('Done');
  });

  it('resends a webhook message, and the receiver gets it again', async () => {
    const url = `${receiver.baseUrl}/hook`;
    const subscription = await t.call('POST', '/v1/event_subscriptions', { body: { url, event_types: ['card.created'] } });
    expect(subscription.status).toBe(200);
    await t.call('POST', '/v1/cards', { body: { type: 'SINGLE_USE', memo: 'webhook card' } });
    const first = await eventually('the first delivery', async () => receiver.requests.find((r) => r.path === '/hook'));
    await open('webhooks');
    await page.getByRole('button', { name: `Messages of ${url}` }).click();
    await page.getByRole('button', { name: /^Resend card\.created message/ }).click();
    await page.getByRole('status').filter({ hasText: 'Resent' }).waitFor();
    const again = await eventually('the resent delivery', async () => receiver.requests.filter((r) => r.headers['webhook-id'] === first.headers['webhook-id']).length >= 2 && true);
    expect(again).toBe(true);
    await page.getByRole('button', { name: /^Attempts of card\.created message/ }).click();
    // The message row (the one with the Resend button) turns delivered without a reload.
    await expectText(page.getByRole('row').filter({ has: page.getByRole('button', { name: /^Resend card\.created message/ }) }), 'delivered');
    const attempts = page.getByRole('table', { name: 'Delivery attempts' }).locator('tbody tr');
    await eventually('both attempts listed, each answered 200', async () => (await attempts.count()) === 2 && (await attempts.allInnerTexts()).every((row) => row.includes('200')));
    await shoot('webhooks');
  });

  it('shows the account, the transactions list and a transaction with its events', async () => {
    await open('account');
    await page.getByRole('heading', { name: /^Program settings/ }).waitFor();
    await page.getByRole('cell', { name: 'DEPOSITORY_CHECKING' }).waitFor();
    await page.getByLabel('Daily limit (USD)').fill('12.50');
    await page.getByLabel('Lifetime limit (USD)').fill('900');
    await page.getByRole('button', { name: 'Save settings' }).click();
    // The form is made anew from the saved account (its "Saved." may be gone at once): the account is what to wait for.
    const limits = await eventually('the limits saved', async () => {
      const { spend_limit } = (await t.call('GET', '/v1/accounts')).body.data[0];
      return spend_limit.daily === 1250 && spend_limit;
    });
    expect(limits).toEqual(expect.objectContaining({ daily: 1250, lifetime: 90_000 }));
    await expectText(page.getByRole('region', { name: /^Program settings/ }), '$12.50 a day');
    await shoot('account');
    await open('transactions');
    await page.getByLabel('Result').selectOption('DECLINED');
    await expectText(page.locator('tbody'), 'USER_TRANSACTION_LIMIT');
    await shoot('transactions');
    await page.locator('tbody a').first().click();
    await page.getByRole('heading', { name: 'Event stream' }).waitFor();
    await expectText(page.locator('.chain').first(), 'hash verified');
    await shoot('transaction');
  });
});
