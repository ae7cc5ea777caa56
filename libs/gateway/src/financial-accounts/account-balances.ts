import { Inject, Injectable } from '@nestjs/common';
import { ledgerCodec, type FinancialAccountBalanceResponse } from '@ledger/contracts';
import {
  accountBalance,
  addToSums,
  type AccountBalance,
  type BalanceSums,
  NO_SUMS,
  transactionAsOf,
  type TransactionEvent,
  type TransactionEventEntry,
  transactionStreamId,
} from '@ledger/domain';
import type { EventStore } from '@ledger/event-store';
import type { ReadModelClient } from '@ledger/read-model';
import { EVENT_STORE, READ_MODEL } from '@ledger/runtime';
import { ledgerTotals } from '../audit/balances';
import type { ProgramFinancialAccount } from './program-financial-accounts';

/** Whose balance: the program's whole account, or one card's part of it. */
export interface BalanceScope {
  readonly programToken: string;
  readonly cardToken?: string;
}

/** A balance with the last event it counts (null: none yet) and when that occurred. */
export interface CountedBalance {
  readonly balance: AccountBalance;
  readonly last: { readonly transactionToken: string; readonly eventToken: string | null; readonly at: Date } | null;
}

/**
 * Balances, folded on read. Now: the ledger view's sums over the transactions read model, the one
 * SQL the card balance (`/balance`) and `admin verify` use, so the three cannot disagree and the
 * projector keeps no table more. At a moment (`balance_date`, `as_of`): every transaction of the
 * scope created by then, folded from its own events up to that moment, as time travel does.
 */
@Injectable()
export class AccountBalances {
  constructor(
    @Inject(READ_MODEL) private readonly readModel: ReadModelClient,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  async of(scope: BalanceScope, asOf?: Date): Promise<CountedBalance> {
    return asOf === undefined ? this.now(scope) : this.at(scope, asOf);
  }

  private async now({ programToken, cardToken }: BalanceScope): Promise<CountedBalance> {
    const [by, token] = cardToken === undefined ? (['program_token', programToken] as const) : (['card_token', cardToken] as const);
    const [totals, last] = await Promise.all([
      ledgerTotals(this.readModel, by, token),
      this.readModel.transaction.findFirst({
        where: { programToken, ...(cardToken === undefined ? {} : { cardToken }) },
        orderBy: [{ updated: 'desc' }, { token: 'desc' }],
        select: { token: true, events: true, updated: true },
      }),
    ]);
    const sums = totals.get(token);
    return {
      balance: accountBalance(sums ? { pending: sums.pending, settled: sums.settled } : NO_SUMS),
      last: last && { transactionToken: last.token, eventToken: lastEntryToken(last.events as unknown as TransactionEventEntry[]), at: last.updated },
    };
  }

  private async at({ programToken, cardToken }: BalanceScope, asOf: Date): Promise<CountedBalance> {
    const candidates = await this.readModel.transaction.findMany({
      where: { programToken, ...(cardToken === undefined ? {} : { cardToken }), created: { lte: asOf } },
      select: { token: true },
    });
    const codec = ledgerCodec<TransactionEvent>();
    let sums: BalanceSums = NO_SUMS;
    let last: CountedBalance['last'] = null;
    for (const { token } of candidates) {
      const dated = (await this.store.readStream(transactionStreamId(token))).map((recorded) => ({ occurredAt: recorded.metadata.occurredAt, event: codec.decode(recorded) }));
      const state = transactionAsOf(dated, asOf);
      if (state.status === 'ABSENT') continue;
      sums = addToSums(sums, state);
      const occurred = dated.filter((event) => Date.parse(event.occurredAt) <= asOf.getTime()).at(-1);
      if (occurred && (last === null || Date.parse(occurred.occurredAt) > last.at.getTime())) {
        last = { transactionToken: token, eventToken: lastEntryToken(state.events), at: new Date(occurred.occurredAt) };
      }
    }
    return { balance: accountBalance(sums), last };
  }
}

function lastEntryToken(events: readonly TransactionEventEntry[]): string | null {
  return events.at(-1)?.token ?? null;
}

export function presentAccountBalance(account: ProgramFinancialAccount, { balance, last }: CountedBalance): FinancialAccountBalanceResponse {
  return {
    token: account.token,
    type: 'ISSUING',
    currency: 'USD',
    available_amount: balance.available,
    pending_amount: balance.pending,
    total_amount: balance.total,
    created: account.created.toISOString(),
    updated: (last?.at ?? account.created).toISOString(),
    last_transaction_token: last?.transactionToken ?? null,
    last_transaction_event_token: last?.eventToken ?? null,
  };
}
