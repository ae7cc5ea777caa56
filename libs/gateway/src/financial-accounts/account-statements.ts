import { Inject, Injectable } from '@nestjs/common';
import { ledgerCodec, type ListStatementsParams, type Page, type PageRequest, type StatementLineItemResponse, type StatementResponse } from '@ledger/contracts';
import {
  balanceMovements,
  type BalanceMovement,
  dayOf,
  endedStatementPeriods,
  financialAccountStatus,
  lastDayOf,
  monthOf,
  programDecider,
  programStreamId,
  programTime,
  type StatementPeriod,
  StatementNotFound,
  statementToken,
  type TransactionEvent,
  transactionStreamId,
} from '@ledger/domain';
import { commandHandler, type EventStore, type PipelineEnvironment } from '@ledger/event-store';
import type { ReadModelClient } from '@ledger/read-model';
import { EVENT_STORE, PIPELINE_ENVIRONMENT, READ_MODEL } from '@ledger/runtime';
import { inMemoryPage } from '../listing/paging';
import type { ProgramFinancialAccount } from './program-financial-accounts';

/** One ended month of the account with the balance movements of its whole life. */
interface Statement {
  readonly token: string;
  readonly number: number;
  readonly period: StatementPeriod;
  readonly account: ProgramFinancialAccount;
  readonly movements: readonly BalanceMovement[];
}

const DAY_MS = 86_400_000;

/**
 * Statements, folded on read from the transaction events: each ended calendar month of the account,
 * its starting and ending total and the movements between (its line items). Nothing is stored for
 * them, so they are read rarely and cost a read of the program's transaction streams each time.
 */
@Injectable()
export class AccountStatements {
  constructor(
    @Inject(READ_MODEL) private readonly readModel: ReadModelClient,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment,
  ) {}

  async list(account: ProgramFinancialAccount, params: ListStatementsParams, paging: PageRequest): Promise<Page<StatementResponse>> {
    const shown = (await this.statements(account)).filter(
      ({ number, period }) =>
        (params.include_initial_statements !== 'false' || number > 1) &&
        (params.begin === undefined || period.start.getTime() >= params.begin.getTime()) &&
        (params.end === undefined || period.start.getTime() < params.end.getTime()),
    );
    return inMemoryPage(paging, shown, (statement) => statement.token, 'statement', (page) => Promise.resolve(page.map(presentStatement)));
  }

  async get(account: ProgramFinancialAccount, token: string): Promise<StatementResponse> {
    return presentStatement(await this.one(account, token));
  }

  async lineItems(account: ProgramFinancialAccount, token: string, paging: PageRequest): Promise<Page<StatementLineItemResponse>> {
    const statement = await this.one(account, token);
    const items = movementsIn(statement.movements, statement.period.start, statement.period.end);
    return inMemoryPage(paging, items, (movement) => movement.eventId, 'line item', (page) => Promise.resolve(page.map((movement) => presentLineItem(account, movement))));
  }

  private async one(account: ProgramFinancialAccount, token: string): Promise<Statement> {
    const statement = (await this.statements(account)).find((candidate) => candidate.token === token);
    if (!statement) throw new StatementNotFound(token);
    return statement;
  }

  /** The account's ended months by the program's clock (a sandbox test clock may have moved it on). */
  private async statements(account: ProgramFinancialAccount): Promise<Statement[]> {
    const program = await commandHandler(this.env, programDecider, programStreamId(account.programToken)).state();
    const now = programTime(program.status === 'active' ? program.clock : null, this.env.now());
    const periods = endedStatementPeriods(account.created, now);
    if (periods.length === 0) return [];
    const movements = await this.movements(account.programToken, periods[periods.length - 1].end);
    return periods.map((period, index) => ({ token: statementToken(account.token, period), number: index + 1, period, account, movements }));
  }

  /** Every balance movement of the program's transactions created before `until`, oldest first. */
  private async movements(programToken: string, until: Date): Promise<BalanceMovement[]> {
    const transactions = await this.readModel.transaction.findMany({ where: { programToken, created: { lt: until } }, select: { token: true } });
    const codec = ledgerCodec<TransactionEvent>();
    const movements: BalanceMovement[] = [];
    for (const { token } of transactions) {
      const recorded = await this.store.readStream(transactionStreamId(token));
      movements.push(...balanceMovements(recorded.map((event) => ({ eventId: event.metadata.eventId, occurredAt: event.metadata.occurredAt, event: codec.decode(event) }))));
    }
    return movements.sort((a, b) => Date.parse(a.occurredAt) - Date.parse(b.occurredAt) || a.eventId.localeCompare(b.eventId));
  }
}

function movementsIn(movements: readonly BalanceMovement[], from: Date, until: Date): BalanceMovement[] {
  return movements.filter((movement) => {
    const at = Date.parse(movement.occurredAt);
    return at >= from.getTime() && at < until.getTime();
  });
}

const sum = (movements: readonly BalanceMovement[]) => movements.reduce((total, movement) => total + movement.amount, 0n);

function totals(movements: readonly BalanceMovement[]) {
  const debits = -sum(movements.filter((movement) => movement.amount < 0n));
  const credits = sum(movements.filter((movement) => movement.amount > 0n));
  return { balance_transfers: 0n, cash_advances: 0n, credits, debits, fees: 0n, interest: 0n, payments: 0n, purchases: debits };
}

function presentStatement({ token, number, period, account, movements }: Statement): StatementResponse {
  const starting = sum(movementsIn(movements, new Date(0), period.start));
  const inPeriod = movementsIn(movements, period.start, period.end);
  const yearStart = new Date(Date.UTC(period.start.getUTCFullYear(), 0, 1));
  const periodTotals = totals(inPeriod);
  return {
    token,
    account_standing: {
      consecutive_full_payments_made: 0,
      consecutive_minimum_payments_made: 0,
      consecutive_minimum_payments_missed: 0,
      days_past_due: 0,
      financial_account_state: { status: financialAccountStatus(account.state), substatus: null },
      has_grace: false,
      period_number: number,
      period_state: 'STANDARD',
    },
    amount_due: { amount: 0, past_due: 0 },
    available_credit: 0,
    created: period.end.toISOString(),
    credit_limit: 0,
    credit_product_token: null,
    days_in_billing_cycle: Math.round((period.end.getTime() - period.start.getTime()) / DAY_MS),
    ending_balance: starting + sum(inPeriod),
    financial_account_token: account.token,
    next_statement_date: lastDayOf(monthOf(period.end)),
    payment_due_date: null,
    period_totals: periodTotals,
    starting_balance: starting,
    statement_end_date: lastDayOf(period),
    statement_start_date: dayOf(period.start),
    statement_type: number === 1 ? 'INITIAL' : 'PERIOD_END',
    updated: period.end.toISOString(),
    ytd_totals: totals(movementsIn(movements, yearStart, period.end)),
    statement_totals: periodTotals,
  };
}

function presentLineItem(account: ProgramFinancialAccount, movement: BalanceMovement): StatementLineItemResponse {
  return {
    token: movement.eventId,
    amount: movement.amount,
    category: 'CARD',
    created: new Date(movement.occurredAt).toISOString(),
    currency: 'USD',
    effective_date: dayOf(new Date(movement.occurredAt)),
    event_type: movement.eventType,
    financial_account_token: account.token,
    financial_transaction_event_token: movement.eventToken,
    financial_transaction_token: movement.transaction.transactionToken,
    card_token: movement.transaction.cardToken,
    descriptor: movement.transaction.merchant.descriptor,
  };
}
