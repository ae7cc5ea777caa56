import { Param, Query } from '@nestjs/common';
import { CallingProgram } from '@ledger/auth';
import { CardTokenParam, ConsistencyQuery, EventIdParam, EventProofQuery, FundingTokenParam, TransactionTokenParam } from '@ledger/contracts';
import type { SignedDigest } from '@ledger/ledger-proof';
import { ProgramApi, Route } from '../http/api-routes';
import { AuditedEvent, AuditedEventListModel, BalanceResponse, ConsistencyResponse, EventProofResponse, SignedDigestModel } from './audit-responses';
import { Balances } from './balances';
import { LedgerCommitment } from './ledger-commitment';
import { StreamEvents } from './stream-events';

/**
 * For auditors: the program's own raw events, in order, with positions and hashes; and the ledger
 * view, pending and settled totals per card and per funding source (checked against the events by
 * `admin verify`); and the ledger-wide commitment: signed digests of the whole log, a proof that one
 * of the program's events is in a digest, a proof that a later digest extends an earlier one
 * (docs/audit.md).
 */
@ProgramApi('audit', 'v1', { errors: [404] })
export class AuditController {
  constructor(
    private readonly streams: StreamEvents,
    private readonly balances: Balances,
    private readonly commitment: LedgerCommitment,
  ) {}

  @Route('GET', 'audit/digest', { summary: 'A signed digest of the whole log now: tree size, position of the last event, Merkle root', answers: SignedDigestModel })
  digest(): Promise<SignedDigest> {
    return this.commitment.digest();
  }

  @Route('GET', 'audit/proof/:event_id', {
    summary: 'One of the program\'s events with its inclusion proof against the digest of tree_size events',
    answers: EventProofResponse,
  })
  proof(@CallingProgram() programToken: string, @Param() { event_id }: EventIdParam, @Query() { tree_size, digest_position }: EventProofQuery): Promise<EventProofResponse> {
    // tree_size, the digest's own name for it, wins over the former name when both are given.
    return this.commitment.proof(programToken, event_id, tree_size ?? digest_position);
  }

  @Route('GET', 'audit/consistency', { summary: 'Proof that the digest of `to` events extends the digest of `from` events', answers: ConsistencyResponse })
  consistency(@Query() { from, to }: ConsistencyQuery): Promise<ConsistencyResponse> {
    return this.commitment.consistency(from ?? 0, to);
  }

  @Route('GET', 'cards/:card_token/events', { summary: 'The card\'s raw events, in order, with positions and hashes', answers: AuditedEventListModel })
  async cardEvents(@CallingProgram() programToken: string, @Param() { card_token }: CardTokenParam): Promise<{ data: AuditedEvent[] }> {
    return { data: await this.streams.card(programToken, card_token) };
  }

  @Route('GET', 'cards/:card_token/balance', { summary: 'The card\'s pending and settled totals', answers: BalanceResponse })
  cardBalance(@CallingProgram() programToken: string, @Param() { card_token }: CardTokenParam): Promise<BalanceResponse> {
    return this.balances.card(programToken, card_token);
  }

  @Route('GET', 'funding_sources/:funding_token/balance', { summary: 'The funding source\'s pending and settled totals', answers: BalanceResponse })
  fundingBalance(@CallingProgram() programToken: string, @Param() { funding_token }: FundingTokenParam): Promise<BalanceResponse> {
    return this.balances.fundingSource(programToken, funding_token);
  }

  @Route('GET', 'transactions/:transaction_token/events', {
    summary: 'The transaction\'s raw events, in order, with positions and hashes',
    answers: AuditedEventListModel,
  })
  async transactionEvents(@CallingProgram() programToken: string, @Param() { transaction_token }: TransactionTokenParam): Promise<{ data: AuditedEvent[] }> {
    return { data: await this.streams.transaction(programToken, transaction_token) };
  }
}
