import { Locator, Page } from 'playwright-core';
import { eventually } from '@ledger/test-support';
import { DashboardInBrowser, describeWithChromium, expectText, openPage, shoot as shootPage, signIn, startDashboardInBrowser } from './dashboard-browser';
import { TestLedger } from './test-ledger';

/**
 * The dashboard's money, disputes and tokens in real headless Chromium against the whole service
 * (dashboard-browser.ts): a card's balance equal to the API's, a dispute won in the page giving its
 * amount back, a wallet token paused in the page declining what comes through it, a physical card's
 * plastic, and the program's financial account with its balance and financial transactions.
 */

/** What the page shows for an amount: the browser runs en-US, as the dashboard formats with Intl. */
const usd = (cents: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);

/** The value of a fact ("Available", "Pending", ...) in the first description list of a region. */
const fact = (region: Locator, term: string) => region.locator(`dl.facts >> dt:text-is("${term}") + dd`).first();

describeWithChromium('the dashboard: balances, disputes, tokens and financial accounts in Chromium', () => {
  let browser: DashboardInBrowser;
  let t: TestLedger;
  let page: Page;

  beforeAll(async () => {
    browser = await startDashboardInBrowser();
    ({ t, page } = browser);
    await signIn(page, t);
  }, 120_000);

  afterAll(async () => {
    await browser?.stop();
  });

  const shoot = (name: string) => shootPage(page, name);
  const open = (route: string) => openPage(page, t, route);
  const simulate = async (action: string, body: object) => {
    const answer = await t.call('POST', `/v1/simulate/${action}`, { body });
    expect(answer.status).toBe(200);
    return answer.body;
  };

  let card: { token: string; pan: string; cvv: string; exp_month: string; exp_year: string };
  let cleared: string;

  /** The card's balance as the API answers it, and the page's Balance section. */
  const cardBalance = async () => (await t.call('GET', `/v1/cards/${card.token}/balances`)).body.data[0];
  const balanceRegion = () => page.getByRole('region', { name: 'Balance', exact: true });

  async function expectPageBalanceToEqualApi(): Promise<void> {
    const balance = await cardBalance();
    await expectText(fact(balanceRegion(), 'Available'), usd(balance.available_amount));
    await expectText(fact(balanceRegion(), 'Pending'), usd(balance.pending_amount));
    await expectText(fact(balanceRegion(), 'Settled'), usd(balance.total_amount));
  }

  it("shows a card's balance as the API answers it: a clearing settled, an authorization pending", async () => {
    card = (await t.call('POST', '/v1/cards', { body: { type: 'DIGITAL_WALLET', memo: 'Money card' } })).body;
    cleared = (await simulate('authorize', { pan: card.pan, amount: 5000, descriptor: 'Hardware Store' })).token;
    await simulate('clearing', { token: cleared });
    await simulate('authorize', { pan: card.pan, amount: 1200, descriptor: 'Book Shop' });
    expect(await cardBalance()).toMatchObject({ pending_amount: 1200, total_amount: -5000, available_amount: -6200 });

    await open(`cards/${card.token}`);
    await expectPageBalanceToEqualApi();
    await expectText(fact(balanceRegion(), 'Settled'), '-$50.00');
    await expectText(fact(balanceRegion(), 'Pending'), '$12.00');
  });

  it('advances a dispute to won in the page, and the balance moves back by its amount', async () => {
    const filed = await t.call('POST', '/v1/disputes', { body: { transaction_token: cleared, amount: 3000, reason: 'GOODS_SERVICES_NOT_RECEIVED' } });
    expect(filed.status).toBe(200);
    const dispute = filed.body;
    const label = `dispute ${dispute.token.slice(0, 8)}`;

    await open('disputes');
    const row = page.getByRole('table', { name: 'All disputes' }).getByRole('row').filter({ hasText: dispute.token.slice(0, 8) });
    await expectText(row, 'NEW');
    await expectText(row, '$30.00');
    await row.getByRole('button', { name: `Submit: ${label} to SUBMITTED` }).click();
    await expectText(row, 'SUBMITTED');
    await row.getByRole('button', { name: `Win: ${label} to CASE_WON` }).click();
    await expectText(row, 'CASE_WON');
    await expectText(row, 'WON_FIRST_CHARGEBACK');
    expect((await t.call('GET', `/v1/disputes/${dispute.token}`)).body).toMatchObject({ status: 'CASE_WON', resolution_reason: 'WON_FIRST_CHARGEBACK' });
    // A case that ended offers no further move.
    expect(await row.getByRole('button').count()).toBe(0);
    await shoot('disputes');

    await open(`cards/${card.token}`);
    expect(await cardBalance()).toMatchObject({ pending_amount: 1200, total_amount: -2000, available_amount: -3200 });
    await expectPageBalanceToEqualApi();
    await expectText(fact(balanceRegion(), 'Settled'), '-$20.00');
    const cardDisputes = page.getByRole('table', { name: 'Disputes' });
    await expectText(cardDisputes, 'CASE_WON');
  });

  it("files a dispute from a cleared transaction's page", async () => {
    const purchase = (await simulate('authorize', { pan: card.pan, amount: 800, descriptor: 'Shoe Shop' })).token;
    await simulate('clearing', { token: purchase });
    await open(`transactions/${purchase}`);
    const section = page.getByRole('region', { name: 'Dispute' });
    await section.getByLabel('Disputed amount (USD)').fill('5.50');
    await section.getByLabel('Reason').selectOption('INCORRECT_AMOUNT');
    await section.getByLabel('Customer note').fill('charged twice the price');
    await section.getByRole('button', { name: 'File dispute' }).click();
    await expectText(section.getByRole('table', { name: 'Dispute' }), 'NEW');
    const listed = (await t.call('GET', `/v1/disputes?transaction_tokens=${purchase}`)).body.data;
    expect(listed).toEqual([expect.objectContaining({ amount: 550, reason: 'INCORRECT_AMOUNT', customer_note: 'charged twice the price', status: 'NEW' })]);
    await shoot('transaction-dispute');
  });

  it('pauses a wallet token in the page: an authorization through it is declined, and approved again once unpaused', async () => {
    const tokenization = await simulate('tokenizations', { pan: card.pan, cvv: card.cvv, expiration_date: `${card.exp_month}/${card.exp_year.slice(-2)}`, tokenization_source: 'APPLE_PAY' });
    expect(tokenization.status).toBe('ACTIVE');
    const throughToken = () => t.call('POST', '/v1/simulate/authorize', { body: { pan: card.pan, amount: 300, descriptor: 'Coffee Bar', tokenization_token: tokenization.token } });

    await open(`cards/${card.token}`);
    const row = page.getByRole('table', { name: 'Tokens' }).getByRole('row').filter({ hasText: 'APPLE_PAY' });
    await expectText(row, 'ACTIVE');
    await row.getByRole('button', { name: /^Pause APPLE_PAY token/ }).click();
    await expectText(row, 'PAUSED');
    expect((await t.call('GET', `/v1/tokenizations/${tokenization.token}`)).body.status).toBe('PAUSED');
    await shoot('card-money');

    const declined = await throughToken();
    expect(declined.status).toBe(422);
    expect((await t.call('GET', `/v1/transactions/${declined.body.token}`)).body).toMatchObject({ result: 'CARD_PAUSED', token_info: { wallet_type: 'APPLE_PAY' } });

    await row.getByRole('button', { name: /^Unpause APPLE_PAY token/ }).click();
    await expectText(row, 'ACTIVE');
    expect((await throughToken()).status).toBe(200);
  });

  it("shows a physical card's plastic: where it goes, and its tracking number once shipped", async () => {
    const address = { first_name: 'Ada', last_name: 'Lovelace', address1: '12 Analytical Row', city: 'BOSTON', state: 'MA', postal_code: '02110', country: 'USA' };
    const physical = (await t.call('POST', '/v1/cards', { body: { type: 'PHYSICAL', shipping_address: address, shipping_method: 'PRIORITY' } })).body;
    expect(physical.state).toBe('PENDING_FULFILLMENT');
    await open(`cards/${physical.token}`);
    // Nothing to activate before the plastic has shipped.
    await expectText(page.getByRole('heading', { level: 1 }), physical.last_four);
    await expectText(page.getByRole('region', { name: 'Details' }), 'PENDING_FULFILLMENT');
    expect(await page.getByRole('button', { name: /^(Activate|Resume|Pause) card$/ }).count()).toBe(0);
    const plastic = page.getByRole('region', { name: 'Plastic' });
    await expectText(fact(plastic, 'Shipping'), 'ORDERED');
    await expectText(fact(plastic, 'Address'), 'Ada Lovelace, 12 Analytical Row, BOSTON, MA 02110, USA');
    await expectText(fact(plastic, 'Method'), 'PRIORITY');
    await simulate(`cards/${physical.token}/ship`, { tracking_number: '1Z999AA10123456784' });
    await expectText(fact(plastic, 'Shipping'), 'SHIPPED');
    await expectText(fact(plastic, 'Tracking number'), '1Z999AA10123456784');
    await shoot('card-plastic');
    // The plastic arrived: the card is activated from its page.
    await page.getByRole('button', { name: 'Activate card' }).click();
    await expectText(page.getByRole('region', { name: 'Details' }), 'OPEN');
    expect((await t.call('GET', `/v1/cards/${physical.token}`)).body.state).toBe('OPEN');
    // A card without a plastic has no such section, and only a DIGITAL_WALLET card has tokens.
    expect(await page.getByRole('region', { name: 'Tokens' }).count()).toBe(0);
  });

  it("shows the program's financial account with its balance equal to the API's, and its financial transactions", async () => {
    const [account] = (await t.call('GET', '/v1/financial_accounts')).body.data;
    const [balance] = (await t.call('GET', `/v1/financial_accounts/${account.token}/balances`)).body.data;
    await open('money');
    const region = page.getByRole('region', { name: 'Issuing account' });
    await expectText(region, account.token);
    await expectText(fact(region, 'Available'), usd(balance.available_amount));
    await expectText(fact(region, 'Pending'), usd(balance.pending_amount));
    await expectText(fact(region, 'Settled'), usd(balance.total_amount));
    const transactions = page.getByRole('table', { name: /^Financial transactions/ });
    await expectText(transactions.getByRole('row').filter({ hasText: 'Hardware Store' }), 'DISPUTE_WON');
    await expectText(transactions.getByRole('row').filter({ hasText: 'Book Shop' }), 'PENDING');
    await page.getByLabel('Status').selectOption('SETTLED');
    await eventually('only settled transactions listed', async () => (await transactions.locator('tbody tr').allInnerTexts()).every((text) => text.includes('SETTLED')) && (await transactions.locator('tbody tr').count()) > 0);
    await shoot('money');
  });
});
