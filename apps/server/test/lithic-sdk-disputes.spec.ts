import Lithic from 'lithic';
import { runAdminCommand } from '@ledger/admin';
import { ledgerForTests, TestLedger } from './test-ledger';

/**
 * Lithic's disputes through its SDK, each method checked by its effect: a dispute filed on a cleared
 * purchase moves nothing, a case won gives its amount back (the transaction's amounts, the card's and
 * the account's balances), a case lost or withdrawn leaves them; evidence is kept in the ledger and
 * given back byte for byte; replay and verify agree after it (docs/decisions.md, "Disputes").
 */

function sdkOf(t: TestLedger, apiKey: string): Lithic {
  // No retries: a 409 or 5xx must fail the test, not be retried into a pass.
  return new Lithic({ apiKey, baseURL: t.baseUrl, maxRetries: 0 });
}

describe('the lithic SDK: disputes', () => {
  const t = ledgerForTests();

  /** A program of its own with a card and a settled purchase of 5,000 cents. */
  async function settledPurchase(name: string) {
    const { apiKey } = await t.createProgram(name);
    const client = sdkOf(t, apiKey);
    const card = await client.cards.create({ type: 'VIRTUAL' });
    const purchase = async (amount: number) => {
      const token = (await client.transactions.simulateAuthorization({ amount, descriptor: 'ELECTRONICS', pan: card.pan! })).token!;
      await client.transactions.simulateClearing({ token });
      expect((await t.call('POST', '/v1/simulate/settle', { apiKey, body: { token } })).status).toBe(200);
      return token;
    };
    const advance = async (token: string, status: string, resolution_reason?: string) => {
      const answer = await t.call('POST', `/v1/simulate/disputes/${token}/advance`, { apiKey, body: { status, ...(resolution_reason ? { resolution_reason } : {}) } });
      expect(answer.status).toBe(200);
      return answer.body as Lithic.Dispute;
    };
    const total = async () => (await client.cards.balances.list(card.token)).data[0].total_amount;
    return { apiKey, client, card, purchase, advance, total };
  }

  it('files a dispute on a settled purchase, retrieves, updates while NEW, lists with filters; a won case gives the amount back', async () => {
    const { client, purchase, advance, total } = await settledPurchase('disputes-won');
    const transactionToken = await purchase(5000);
    expect(await total()).toBe(-5000);

    const dispute = await client.disputes.create({ transaction_token: transactionToken, amount: 3000, reason: 'GOODS_SERVICES_NOT_RECEIVED', customer_filed_date: '2026-11-20T10:00:00Z' });
    expect(dispute).toMatchObject({ status: 'NEW', amount: 3000, transaction_token: transactionToken, resolution_reason: null, customer_filed_date: '2026-11-20T10:00:00.000Z' });
    // Filing moves no money: no provisional credit.
    expect(await total()).toBe(-5000);
    expect(await client.disputes.retrieve(dispute.token)).toEqual(dispute);
    // A transaction is disputed once, and never for more than it settled.
    await expect(client.disputes.create({ transaction_token: transactionToken, amount: 100, reason: 'OTHER' })).rejects.toMatchObject({ status: 409 });
    await expect(client.disputes.update(dispute.token, { amount: 5001 })).rejects.toMatchObject({ status: 400 });

    const updated = await client.disputes.update(dispute.token, { amount: 4000, customer_note: 'never delivered' });
    expect(updated).toMatchObject({ amount: 4000, customer_note: 'never delivered', reason: 'GOODS_SERVICES_NOT_RECEIVED' });

    const other = await purchase(700);
    const second = await client.disputes.create({ transaction_token: other, amount: 700, reason: 'DUPLICATED' });
    const all = [];
    for await (const listed of client.disputes.list()) all.push(listed.token);
    expect(all).toEqual([dispute.token, second.token]);
    expect((await client.disputes.list({ transaction_tokens: [other] })).data.map((listed) => listed.token)).toEqual([second.token]);
    expect((await client.disputes.list({ status: 'SUBMITTED' })).data).toEqual([]);

    expect(await advance(dispute.token, 'SUBMITTED')).toMatchObject({ status: 'SUBMITTED', network_filed_date: expect.any(String) });
    // Once submitted, the dispute can no longer be changed.
    await expect(client.disputes.update(dispute.token, { amount: 10 })).rejects.toMatchObject({ status: 409 });
    expect((await client.disputes.list({ status: 'SUBMITTED' })).data.map((listed) => listed.token)).toEqual([dispute.token]);
    await advance(dispute.token, 'REPRESENTMENT');
    await advance(dispute.token, 'PREARBITRATION');
    const won = await advance(dispute.token, 'CASE_WON');
    expect(won).toMatchObject({ status: 'CASE_WON', resolution_reason: 'WON_PREARBITRATION', resolution_date: expect.any(String), prearbitration_date: expect.any(String) });

    // The amount came back: the transaction's amounts and every balance moved by it.
    expect(await total()).toBe(-5000 - 700 + 4000);
    const transaction = await client.transactions.retrieve(transactionToken);
    expect(transaction).toMatchObject({ amount: 1000, settled_amount: 1000, status: 'SETTLED' });
    expect(transaction.events!.at(-1)).toMatchObject({ type: 'DISPUTE_WON', amount: 4000 });
    const [account] = (await client.financialAccounts.list()).data;
    expect((await client.financialAccounts.balances.list(account.token)).data[0].total_amount).toBe(-1700);
    const financial = await client.financialAccounts.financialTransactions.retrieve(transactionToken, { financial_account_token: account.token });
    expect(financial.events!.at(-1)).toMatchObject({ type: 'DISPUTE_WON', amount: 4000 });
    // The case is over.
    await expect(client.disputes.delete(dispute.token)).rejects.toMatchObject({ status: 409 });
  });

  it('a case lost or withdrawn leaves the balance; another program sees none of it', async () => {
    const { apiKey, client, card, purchase, advance, total } = await settledPurchase('disputes-lost');
    const lostOn = await purchase(2000);
    const withdrawnOn = await purchase(900);
    const lost = await client.disputes.create({ transaction_token: lostOn, amount: 2000, reason: 'FRAUD_CARD_NOT_PRESENT' });
    await advance(lost.token, 'SUBMITTED');
    expect(await advance(lost.token, 'CASE_CLOSED')).toMatchObject({ status: 'CASE_CLOSED', resolution_reason: 'CASE_LOST' });
    const withdrawn = await client.disputes.create({ transaction_token: withdrawnOn, amount: 900, reason: 'CANCELLED' });
    expect(await client.disputes.delete(withdrawn.token)).toMatchObject({ status: 'CASE_CLOSED', resolution_reason: 'WITHDRAWN' });
    expect(await total()).toBe(-2900);
    expect((await client.transactions.retrieve(lostOn)).amount).toBe(2000);
    // A closed case cannot be won afterwards, and a pending authorization cannot be disputed.
    expect((await t.call('POST', `/v1/simulate/disputes/${lost.token}/advance`, { apiKey, body: { status: 'CASE_WON' } })).status).toBe(409);
    const pending = (await client.transactions.simulateAuthorization({ amount: 100, descriptor: 'CAFE', pan: card.pan! })).token!;
    await expect(client.disputes.create({ transaction_token: pending, amount: 100, reason: 'OTHER' })).rejects.toMatchObject({ status: 409 });

    const stranger = sdkOf(t, (await t.createProgram('disputes-stranger')).apiKey);
    await expect(stranger.disputes.retrieve(lost.token)).rejects.toMatchObject({ status: 404 });
    await expect(stranger.disputes.create({ transaction_token: lostOn, amount: 1, reason: 'OTHER' })).rejects.toMatchObject({ status: 404 });
    expect((await stranger.disputes.list()).data).toEqual([]);
  });

  it('keeps evidence in the ledger: initiate, upload to upload_url, list, retrieve, download, delete', async () => {
    const { apiKey, client, purchase } = await settledPurchase('disputes-evidence');
    const dispute = await client.disputes.create({ transaction_token: await purchase(1500), amount: 1500, reason: 'INCORRECT_AMOUNT' });
    const evidence = await client.disputes.initiateEvidenceUpload(dispute.token, { filename: 'receipt.pdf' });
    expect(evidence).toMatchObject({ dispute_token: dispute.token, upload_status: 'PENDING', filename: 'receipt.pdf', upload_url: expect.stringContaining(evidence.token) });
    expect(evidence.download_url).toBeUndefined();

    const file = Buffer.from('%PDF-1.4\nreceipt for 15.00\n');
    const uploaded = await t.call('PUT', evidence.upload_url!, { apiKey, body: { content_base64: file.toString('base64') } });
    expect(uploaded.status).toBe(200);
    const retrieved = await client.disputes.retrieveEvidence(evidence.token, { dispute_token: dispute.token });
    expect(retrieved).toMatchObject({ upload_status: 'UPLOADED', download_url: expect.stringContaining('/download') });
    expect(retrieved.upload_url).toBeUndefined();
    const downloaded = await t.call('GET', retrieved.download_url!, { apiKey });
    expect(Buffer.from(downloaded.body.content_base64, 'base64')).toEqual(file);
    // Uploaded once: a second upload is refused; too large a file is refused.
    expect((await t.call('PUT', evidence.upload_url!, { apiKey, body: { content_base64: file.toString('base64') } })).status).toBe(409);
    const big = await client.disputes.initiateEvidenceUpload(dispute.token);
    expect((await t.call('PUT', big.upload_url!, { apiKey, body: { content_base64: Buffer.alloc(65_537).toString('base64') } })).status).toBe(400);

    const listed = [];
    for await (const item of client.disputes.listEvidences(dispute.token)) listed.push(item.token);
    expect(listed).toEqual([evidence.token, big.token]);
    expect(await client.disputes.deleteEvidence(evidence.token, { dispute_token: dispute.token })).toMatchObject({ upload_status: 'DELETED' });
    expect((await client.disputes.retrieveEvidence(evidence.token, { dispute_token: dispute.token })).upload_status).toBe('DELETED');
    // Nothing to download before an upload, nor after a deletion.
    expect((await t.call('GET', `/v1/disputes/${dispute.token}/evidences/${big.token}/download`, { apiKey })).status).toBe(409);
    expect((await t.call('GET', `/v1/disputes/${dispute.token}/evidences/${evidence.token}/download`, { apiKey })).status).toBe(409);
  });

  it('replays the dispute streams into the same read models, and verify finds every balance equal to its events', async () => {
    const { client, card, purchase, advance } = await settledPurchase('disputes-replay');
    const dispute = await client.disputes.create({ transaction_token: await purchase(2500), amount: 1000, reason: 'PROCESSING_ERROR' });
    await advance(dispute.token, 'SUBMITTED');
    await advance(dispute.token, 'CASE_WON');
    const replay = await runAdminCommand(t.ledger.app, ['replay']);
    expect(replay.output).toMatchObject({ identical: true, differenceCount: 0 });
    const verified = await runAdminCommand(t.ledger.app, ['verify']);
    const mismatches = (verified.output as { ledgerMismatches: { token: string }[] }).ledgerMismatches;
    expect(mismatches.filter((mismatch) => [card.token, card.funding?.token].includes(mismatch.token))).toEqual([]);
    expect((await client.cards.balances.list(card.token)).data[0].total_amount).toBe(-1500);
  });
});
