import Lithic from 'lithic';
import { runAdminCommand } from '@ledger/admin';
import { ledgerForTests, TestLedger } from './test-ledger';

/**
 * Lithic's financial accounts, balances and financial transactions through its SDK, each checked by
 * its effect: an authorization moves the pending amount, a clearing moves it to the total, a void
 * releases it, a return credits; the balances equal the card's ledger view (`/balance`) and, at
 * every step, what `balance_date` shows for that step's moment (docs/decisions.md, "Financial
 * accounts and balances").
 */

function sdkOf(t: TestLedger, apiKey: string): Lithic {
  // No retries: a 409 or 5xx must fail the test, not be retried into a pass.
  return new Lithic({ apiKey, baseURL: t.baseUrl, maxRetries: 0 });
}

interface Figures {
  available_amount: number;
  pending_amount: number;
  total_amount: number;
}

const figures = ({ available_amount, pending_amount, total_amount }: Figures): Figures => ({ available_amount, pending_amount, total_amount });

describe('the lithic SDK: financial accounts, balances and financial transactions', () => {
  const t = ledgerForTests();

  /** A program of its own (its balances count only this test's transactions), with a card. */
  async function freshProgram(name: string) {
    const { apiKey, programToken } = await t.createProgram(name);
    const client = sdkOf(t, apiKey);
    const card = await client.cards.create({ type: 'DIGITAL_WALLET' });
    const accounts = [];
    for await (const account of client.financialAccounts.list()) accounts.push(account);
    return { apiKey, programToken, client, card, account: accounts[0] };
  }

  it("lists the program's ISSUING account, the same token every time, and retrieves it; another program's is 404", async () => {
    const { client, programToken, account } = await freshProgram('financial-accounts');
    expect(account).toMatchObject({ type: 'ISSUING', account_token: programToken, status: 'OPEN', is_for_benefit_of: false, credit_configuration: null });
    expect((await client.financialAccounts.list()).data.map((listed) => listed.token)).toEqual([account.token]);
    expect(await client.financialAccounts.retrieve(account.token)).toEqual(account);
    // Filters that name nothing here list nothing.
    expect((await client.financialAccounts.list({ type: 'RESERVE' })).data).toEqual([]);
    expect((await client.financialAccounts.list({ account_token: '6d1f4b1e-2a3c-4d5e-8f90-0a1b2c3d4e5f' })).data).toEqual([]);
    expect((await client.financialAccounts.list({ type: 'ISSUING', account_token: programToken })).data).toEqual([account]);
    // The account is the program's: no create or update (the paths take GET only), and Lithic's balance-by-event parameter is not taken.
    await expect(client.financialAccounts.create({ nickname: 'second', type: 'OPERATING' })).rejects.toMatchObject({ status: 405 });
    await expect(client.financialAccounts.update(account.token, { nickname: 'renamed' })).rejects.toMatchObject({ status: 405 });
    await expect(client.financialAccounts.balances.list(account.token, { last_transaction_event_token: '6d1f4b1e-2a3c-4d5e-8f90-0a1b2c3d4e5f' })).rejects.toMatchObject({ status: 400 });
    expect(await client.financialAccounts.retrieve(account.token)).toEqual(account);

    const other = await freshProgram('financial-accounts-other');
    expect(other.account.token).not.toBe(account.token);
    await expect(other.client.financialAccounts.retrieve(account.token)).rejects.toMatchObject({ status: 404 });
    await expect(other.client.financialAccounts.balances.list(account.token)).rejects.toMatchObject({ status: 404 });
    await expect(other.client.cards.balances.list((await freshProgram('financial-accounts-third')).card.token)).rejects.toMatchObject({ status: 404 });
  });

  it('moves the balances as the events do, equal to the ledger view, and balance_date shows each step again', async () => {
    const { apiKey, client, card, account } = await freshProgram('balances');
    const pan = card.pan!;
    const simulate = (action: string, body: object) => t.call('POST', `/v1/simulate/${action}`, { apiKey, body });

    /** The three views of the one balance, which must agree; and the ledger view they are made of. */
    async function balances(): Promise<{ figures: Figures; updated: string }> {
      const ofAccount = (await client.financialAccounts.balances.list(account.token)).data;
      const listed = (await client.balances.list()).data;
      const ofCard = (await client.cards.balances.list(card.token)).data;
      expect(ofAccount).toHaveLength(1);
      expect(listed).toEqual([{ ...figures(ofAccount[0]), financial_account_token: account.token, financial_account_type: 'ISSUING', currency: 'USD', created: ofAccount[0].created, updated: ofAccount[0].updated, last_transaction_token: ofAccount[0].last_transaction_token, last_transaction_event_token: ofAccount[0].last_transaction_event_token }]);
      // The program has one card: the card's part is the whole account.
      expect(ofCard).toEqual(ofAccount);
      const view = (await t.call('GET', `/v1/cards/${card.token}/balance`, { apiKey })).body;
      expect(figures(ofAccount[0])).toEqual({ pending_amount: view.pending, total_amount: 0 - view.settled, available_amount: 0 - view.settled - view.pending });
      return { figures: figures(ofAccount[0]), updated: ofAccount[0].updated };
    }

    const steps: { figures: Figures; updated: string }[] = [];
    const step = async (expected: Figures) => {
      const now = await balances();
      expect(now.figures).toEqual(expected);
      steps.push(now);
    };

    await step({ available_amount: 0, pending_amount: 0, total_amount: 0 });
    const first = (await client.transactions.simulateAuthorization({ amount: 1000, descriptor: 'HOTEL', pan })).token!;
    await step({ available_amount: -1000, pending_amount: 1000, total_amount: 0 });
    await client.transactions.simulateClearing({ token: first, amount: 600 });
    await step({ available_amount: -600, pending_amount: 0, total_amount: -600 });
    const second = (await client.transactions.simulateAuthorization({ amount: 500, descriptor: 'KIOSK', pan })).token!;
    await step({ available_amount: -1100, pending_amount: 500, total_amount: -600 });
    await client.transactions.simulateVoid({ token: second, amount: 200 });
    await step({ available_amount: -900, pending_amount: 300, total_amount: -600 });
    await client.transactions.simulateVoid({ token: second });
    await step({ available_amount: -600, pending_amount: 0, total_amount: -600 });
    await client.transactions.simulateReturn({ amount: 250, descriptor: 'REFUND', pan });
    await step({ available_amount: -350, pending_amount: 0, total_amount: -350 });
    expect((await simulate('settle', { token: first })).status).toBe(200);
    await step({ available_amount: -350, pending_amount: 0, total_amount: -350 });

    // The last event counted is the settlement's transaction's last event.
    const now = (await client.financialAccounts.balances.list(account.token)).data[0];
    expect(now.last_transaction_token).toBe(first);
    expect(now.last_transaction_event_token).toBe((await client.transactions.retrieve(first)).events!.at(-1)!.token);

    // Time travel: each step's balance again, at the moment of the last event it counted.
    for (const { figures: then, updated } of steps.slice(1)) {
      const [ofAccount] = (await client.financialAccounts.balances.list(account.token, { balance_date: updated })).data;
      expect(figures(ofAccount)).toEqual(then);
      const [ofCard] = (await client.cards.balances.list(card.token, { balance_date: updated })).data;
      expect(figures(ofCard)).toEqual(then);
      const [listed] = (await client.balances.list({ balance_date: updated })).data;
      expect(figures(listed)).toEqual(then);
    }
    // Before the program's first transaction, nothing.
    const [before] = (await client.balances.list({ balance_date: '2000-01-01' })).data;
    expect(figures(before)).toEqual({ available_amount: 0, pending_amount: 0, total_amount: 0 });
    expect(before.last_transaction_token).toBeNull();
    // balance_date and as_of are one moment: both at once must agree.
    await expect(client.balances.list({ balance_date: steps[1].updated, as_of: steps[2].updated } as Lithic.BalanceListParams)).rejects.toMatchObject({ status: 400 });

    // The balances equal their events: verify finds nothing to report for this program.
    const verified = await runAdminCommand(t.ledger.app, ['verify']);
    const mismatches = (verified.output as { ledgerMismatches: { token: string }[] }).ledgerMismatches;
    expect(mismatches.filter((mismatch) => [card.token, card.funding?.token, account.account_token].includes(mismatch.token))).toEqual([]);
  });

  it("shows each card transaction as a financial transaction with Lithic's event types and statuses, by card and by account", async () => {
    const { client, card, account } = await freshProgram('financial-transactions');
    const pan = card.pan!;
    const cleared = (await client.transactions.simulateAuthorization({ amount: 1000, descriptor: 'HOTEL', pan })).token!;
    await client.transactions.simulateClearing({ token: cleared, amount: 900 });
    const voided = (await client.transactions.simulateAuthorization({ amount: 400, descriptor: 'KIOSK', pan })).token!;
    await client.transactions.simulateVoid({ token: voided });
    const pending = (await client.transactions.simulateAuthorization({ amount: 300, descriptor: 'CAFE', pan })).token!;
    const returned = (await client.transactions.simulateReturn({ amount: 120, descriptor: 'REFUND', pan })).token!;

    const listed = [];
    for await (const transaction of client.cards.financialTransactions.list(card.token)) listed.push(transaction);
    expect(listed.map((transaction) => [transaction.token, transaction.status, transaction.pending_amount, transaction.settled_amount, transaction.events.map((event) => event.type)])).toEqual([
      [cleared, 'SETTLED', 0, 900, ['AUTHORIZATION', 'CLEARING']],
      [voided, 'VOIDED', 0, 0, ['AUTHORIZATION', 'AUTHORIZATION_REVERSAL']],
      [pending, 'PENDING', 300, 0, ['AUTHORIZATION']],
      [returned, 'SETTLED', 0, -120, ['RETURN']],
    ]);
    expect(listed[0]).toMatchObject({ category: 'CARD', currency: 'USD', descriptor: 'HOTEL', result: 'APPROVED', events: [{ amount: 1000, result: 'APPROVED' }, { amount: 900, result: 'APPROVED' }] });
    // The same through the account, one by one, and filtered.
    const byAccount = (await client.financialAccounts.financialTransactions.list(account.token)).data;
    expect(byAccount).toEqual(listed);
    expect(await client.financialAccounts.financialTransactions.retrieve(voided, { financial_account_token: account.token })).toEqual(listed[1]);
    expect(await client.cards.financialTransactions.retrieve(pending, { card_token: card.token })).toEqual(listed[2]);
    expect((await client.cards.financialTransactions.list(card.token, { status: 'SETTLED' })).data.map((transaction) => transaction.token)).toEqual([cleared, returned]);
    expect((await client.financialAccounts.financialTransactions.list(account.token, { category: 'ACH' })).data).toEqual([]);
    // Its settled amounts add up to the balance's total, from the account's side.
    const [balance] = (await client.cards.balances.list(card.token)).data;
    expect(balance.total_amount).toBe(-listed.reduce((sum, transaction) => sum + transaction.settled_amount, 0));
    expect(balance.pending_amount).toBe(listed.reduce((sum, transaction) => sum + transaction.pending_amount, 0));

    // A declined authorization is a DECLINED financial transaction.
    await client.cards.update(card.token, { state: 'PAUSED' });
    await expect(client.transactions.simulateAuthorization({ amount: 50, descriptor: 'SHOP', pan })).rejects.toMatchObject({ status: 422 });
    const declined = (await client.cards.financialTransactions.list(card.token, { result: 'DECLINED' })).data;
    expect(declined.map((transaction) => [transaction.status, transaction.result, transaction.events[0].result])).toEqual([['DECLINED', 'DECLINED', 'DECLINED']]);

    // Another card's transaction is not this card's: 404.
    const otherCard = await client.cards.create({ type: 'DIGITAL_WALLET' });
    await expect(client.cards.financialTransactions.retrieve(cleared, { card_token: otherCard.token })).rejects.toMatchObject({ status: 404 });
  });

  it('gives a statement for each ended month: its starting and ending totals, what moved them, and the line items that add up', async () => {
    const { apiKey, client, card, account } = await freshProgram('statements');
    const pan = card.pan!;
    const advanceTo = async (frozenTime: Date) => expect((await t.call('POST', '/v1/simulate/clock/advance', { apiKey, body: { frozen_time: frozenTime.toISOString() } })).status).toBe(200);
    const monthStart = (offset: number) => {
      const now = new Date();
      return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1));
    };
    // Nothing has ended yet: no statement.
    expect((await client.financialAccounts.statements.list(account.token)).data).toEqual([]);

    const first = (await client.transactions.simulateAuthorization({ amount: 1000, descriptor: 'HOTEL', pan })).token!;
    await client.transactions.simulateClearing({ token: first, amount: 600 });
    await client.transactions.simulateReturn({ amount: 100, descriptor: 'REFUND', pan });
    await client.transactions.simulateAuthorization({ amount: 50, descriptor: 'HELD', pan }); // pending: no line item
    await advanceTo(new Date(monthStart(1).getTime() + 3_600_000));
    const second = (await client.transactions.simulateAuthorization({ amount: 300, descriptor: 'KIOSK', pan })).token!;
    await client.transactions.simulateClearing({ token: second });
    await advanceTo(new Date(monthStart(2).getTime() + 3_600_000));

    const statements = [];
    for await (const statement of client.financialAccounts.statements.list(account.token)) statements.push(statement);
    expect(statements.map((statement) => [statement.statement_type, statement.statement_start_date, statement.starting_balance, statement.ending_balance, statement.period_totals.debits, statement.period_totals.credits])).toEqual([
      ['INITIAL', monthStart(0).toISOString().slice(0, 10), 0, -500, 600, 100],
      ['PERIOD_END', monthStart(1).toISOString().slice(0, 10), -500, -800, 300, 0],
    ]);
    expect(statements[1]).toMatchObject({ financial_account_token: account.token, statement_end_date: new Date(monthStart(2).getTime() - 1).toISOString().slice(0, 10), ytd_totals: expect.any(Object) });
    expect(await client.financialAccounts.statements.retrieve(statements[1].token, { financial_account_token: account.token })).toEqual(statements[1]);
    expect((await client.financialAccounts.statements.list(account.token, { include_initial_statements: false })).data.map((statement) => statement.token)).toEqual([statements[1].token]);

    // The line items are the movements of the total: each statement's ending is its starting plus them.
    for (const statement of statements) {
      const items = [];
      for await (const item of client.financialAccounts.statements.lineItems.list(statement.token, { financial_account_token: account.token })) items.push(item);
      expect(statement.starting_balance + items.reduce((total, item) => total + item.amount, 0)).toBe(statement.ending_balance);
    }
    const items = (await client.financialAccounts.statements.lineItems.list(statements[0].token, { financial_account_token: account.token })).data;
    expect(items.map((item) => [item.event_type, item.amount, item.descriptor, item.card_token])).toEqual([
      ['CLEARING', -600, 'HOTEL', card.token],
      ['RETURN', 100, 'REFUND', card.token],
    ]);
    expect(items[0]).toMatchObject({ category: 'CARD', financial_transaction_token: first, financial_account_token: account.token });
    // The last ending is today's total (nothing moved since); the 0.50 held shows only as pending.
    const [balance] = (await client.financialAccounts.balances.list(account.token)).data;
    expect([balance.total_amount, balance.pending_amount]).toEqual([-800, 50]);

    // Another program's account and an unknown statement are 404.
    const other = await freshProgram('statements-other');
    await expect(other.client.financialAccounts.statements.list(account.token)).rejects.toMatchObject({ status: 404 });
    await expect(client.financialAccounts.statements.retrieve(other.account.token, { financial_account_token: account.token })).rejects.toMatchObject({ status: 404 });
  });
});
