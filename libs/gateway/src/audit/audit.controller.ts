import { Controller, Get, Param, Query, UseGuards } from '@nestjs/common';
import { ApiKeyGuard, CallingProgram } from '@ledger/auth';
import { CardTokenParam, ConsistencyQuery, EventIdParam, EventProofQuery, FundingTokenParam, TransactionTokenParam } from '@ledger/contracts';
import type { SignedDigest } from '@ledger/ledger-proof';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiErrors, AuditedEventListModel, BalanceModel, ConsistencyProofModel, EventProofModel, SignedDigestModel } from '../http/openapi-models';
import { Balances, BalanceResponse } from './balances';
import { ConsistencyResponse, EventProofResponse, LedgerCommitment } from './ledger-commitment';
import { AuditedEvent, StreamEvents } from './stream-events';

/**
 * For auditors: the program's own raw events, in order, with positions and hashes; and the ledger
 * view, pending and settled totals per card and per funding source (checked against the events by
 * `admin verify`); and the ledger-wide commitment: signed digests of the whole log, a proof that one
 * of the program's events is in a digest, a proof that a later digest extends an earlier one
 * (docs/audit.md).
 */
@ApiTags('audit')
@ApiSecurity('api-key')
@ApiErrors(400, 401, 404)
@Controller('v1')
@UseGuards(ApiKeyGuard)
export class AuditController {
  constructor(
    private readonly streams: StreamEvents,
    private readonly balances: Balances,
    private readonly commitment: LedgerCommitment,
  ) {}

  @Get('audit/digest')
  @ApiOperation({ summary: 'A signed digest of the whole log now: tree size, position of the last event, Merkle root' })
  @ApiOkResponse({ type: SignedDigestModel })
  digest(): Promise<SignedDigest> {
    return this.commitment.digest();
  }

  @Get('audit/proof/:event_id')
  @ApiOperation({ summary: 'One of the program\'s events with its inclusion proof against a digest of digest_position events' })
  @ApiOkResponse({ type: EventProofModel })
  proof(@CallingProgram() programToken: string, @Param() { event_id }: EventIdParam, @Query() { digest_position }: EventProofQuery): Promise<EventProofResponse> {
    return this.commitment.proof(programToken, event_id, digest_position);
  }

  @Get('audit/consistency')
  @ApiOperation({ summary: 'Proof that the digest of `to` events extends the digest of `from` events' })
  @ApiOkResponse({ type: ConsistencyProofModel })
  consistency(@Query() { from, to }: ConsistencyQuery): Promise<ConsistencyResponse> {
    return this.commitment.consistency(from ?? 0, to);
  }

  @Get('cards/:card_token/events')
  @ApiOperation({ summary: 'The card\'s raw events, in order, with positions and hashes' })
  @ApiOkResponse({ type: AuditedEventListModel })
  async cardEvents(@CallingProgram() programToken: string, @Param() { card_token }: CardTokenParam): Promise<{ data: AuditedEvent[] }> {
    return { data: await this.streams.card(programToken, card_token) };
  }

  @Get('cards/:card_token/balance')
  @ApiOperation({ summary: 'The card\'s pending and settled totals' })
  @ApiOkResponse({ type: BalanceModel })
  cardBalance(@CallingProgram() programToken: string, @Param() { card_token }: CardTokenParam): Promise<BalanceResponse> {
    return this.balances.card(programToken, card_token);
  }

  @Get('funding_sources/:funding_token/balance')
  @ApiOperation({ summary: 'The funding source\'s pending and settled totals' })
  @ApiOkResponse({ type: BalanceModel })
  fundingBalance(@CallingProgram() programToken: string, @Param() { funding_token }: FundingTokenParam): Promise<BalanceResponse> {
    return this.balances.fundingSource(programToken, funding_token);
  }

  @Get('transactions/:transaction_token/events')
  @ApiOperation({ summary: 'The transaction\'s raw events, in order, with positions and hashes' })
  @ApiOkResponse({ type: AuditedEventListModel })
  async transactionEvents(@CallingProgram() programToken: string, @Param() { transaction_token }: TransactionTokenParam): Promise<{ data: AuditedEvent[] }> {
    return { data: await this.streams.transaction(programToken, transaction_token) };
  }
}
