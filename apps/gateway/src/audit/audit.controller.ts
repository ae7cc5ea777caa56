import { Controller, Get, Param, UseGuards } from '@nestjs/common';
import { ApiKeyGuard, CallingProgram } from '@ledger/auth';
import { CardTokenParam, FundingTokenParam, TransactionTokenParam } from '@ledger/contracts';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiErrors, AuditedEventListModel, BalanceModel } from '../http/openapi-models';
import { Balances, BalanceResponse } from './balances';
import { AuditedEvent, StreamEvents } from './stream-events';

/**
 * For auditors: the program's own raw events, in order, with positions and hashes; and the ledger
 * view, pending and settled totals per card and per funding source (checked against the events by
 * `admin verify`).
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
  ) {}

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
