import type { DisputeEvent, TokenizationEvent } from '@ledger/domain';
import { streamFoldedBody } from './stream-folded-bodies';

/** The bodies of dispute.updated and tokenization.updated: their subject as the history up to the event leaves it. */
const disputeToken = '4d0e8f2a-3b5c-4d6e-9f7a-8b9c0d1e2f3a';
const tokenizationToken = '3c9d7e1f-2a4b-4c5d-8e6f-7a8b9c0d1e2f';
const programToken = '1d2c3b4a-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const cardToken = '7ef7d65c-9023-4da3-b113-3b8583fd7951';

const dispute: DisputeEvent[] = [
  { type: 'DisputeFiled', data: { disputeToken, programToken, transactionToken: 'tx-1', cardToken, amount: 3000, reason: 'DUPLICATED', customerFiledDate: null, customerNote: null, at: '2026-11-20T10:00:00.000Z' } },
  { type: 'DisputeAmended', data: { disputeToken, amount: 4000, at: '2026-11-20T11:00:00.000Z' } },
  { type: 'DisputeStatusChanged', data: { disputeToken, status: 'SUBMITTED', resolutionReason: null, at: '2026-11-21T09:00:00.000Z' } },
];

const token: TokenizationEvent[] = [
  { type: 'TokenizationDecided', data: { tokenizationToken, programToken, cardToken, eventToken: 'e-1', source: 'APPLE_PAY', outcome: 'APPROVED', declineReasons: [], tfaReasons: [], at: '2026-11-20T10:00:00.000Z' } },
  { type: 'TokenizationStatusChanged', data: { tokenizationToken, programToken, eventToken: 'e-2', action: 'PAUSE', from: 'ACTIVE', to: 'PAUSED', at: '2026-11-20T12:00:00.000Z' } },
];

describe('the body of dispute.updated', () => {
  it('is the dispute as of the event, not as the later events leave it', () => {
    expect(streamFoldedBody('dispute.updated', dispute.slice(0, 1))).toMatchObject({ event_type: 'dispute.updated', token: disputeToken, status: 'NEW', amount: 3000, network_filed_date: null });
    expect(streamFoldedBody('dispute.updated', dispute.slice(0, 2))).toMatchObject({ status: 'NEW', amount: 4000 });
    expect(streamFoldedBody('dispute.updated', dispute)).toMatchObject({ status: 'SUBMITTED', amount: 4000, network_filed_date: '2026-11-21T09:00:00.000Z' });
  });
});

describe('the body of tokenization.updated', () => {
  it("is the whole token after the change, with the change's time", () => {
    expect(streamFoldedBody('tokenization.updated', token)).toMatchObject({
      event_type: 'tokenization.updated',
      account_token: programToken,
      card_token: cardToken,
      created: '2026-11-20T12:00:00.000Z',
      tokenization: { token: tokenizationToken, status: 'PAUSED', updated_at: '2026-11-20T12:00:00.000Z', events: [{ result: 'APPROVED' }, { result: 'TOKEN_SUSPENDED', type: 'TOKENIZATION_UPDATED' }] },
    });
  });

  it('is none for a history that does not make the token', () => {
    expect(streamFoldedBody('tokenization.updated', [])).toBeNull();
  });
});
