import { Inject, Injectable } from '@nestjs/common';
import { BALANCE_STATUSES, CardNotFound, FundingSourceNotFound } from '@ledger/domain';
import { sqlStringList, type ReadModelClient } from '@ledger/read-model';
import { READ_MODEL } from '@ledger/runtime';
import type { BalanceResponse } from './audit-responses';

/**
 * Pending and settled totals, in cents, of a card or a funding source. They are ledger sums, signed:
 * a return counts negative in `settled` (money back is money back; the spend-limit rule that a
 * return undoes only earlier spend is for limits, not for the ledger). Sums over any number of
 * transactions may pass 2^53, so they are bigint and written as exact JSON digits (exact-json.ts).
 */
export interface LedgerTotals {
  pending: bigint;
  settled: bigint;
  settlementComplete: bigint;
  bounced: bigint;
}

/** What the ledger's totals are kept by: a card, a funding source, or a program (its financial account). */
export type LedgerTotalsBy = 'card_token' | 'funding_token' | 'program_token';

/** One SQL for every view: totals over the transactions read model, grouped by the column asked for. */
export async function ledgerTotals(readModel: ReadModelClient, by: LedgerTotalsBy, only?: string): Promise<Map<string, LedgerTotals>> {
  const rows = await readModel.$queryRawUnsafe<{ key: string; pending: string; settled: string; complete: string; bounced: string }[]>(
    `select ${by}::text as key,
            coalesce(sum(amount) filter (where status in (${sqlStringList(BALANCE_STATUSES.pending)})), 0)::text as pending,
            coalesce(sum(settled_amount) filter (where status in (${sqlStringList(BALANCE_STATUSES.settled)})), 0)::text as settled,
            coalesce(sum(settled_amount) filter (where status in (${sqlStringList(BALANCE_STATUSES.settlementComplete)})), 0)::text as complete,
            coalesce(sum(settled_amount) filter (where status in (${sqlStringList(BALANCE_STATUSES.bounced)})), 0)::text as bounced
       from transactions ${only ? `where ${by} = $1::uuid` : ''}
      group by ${by}`,
    ...(only ? [only] : []),
  );
  return new Map(rows.map((row) => [row.key, { pending: BigInt(row.pending), settled: BigInt(row.settled), settlementComplete: BigInt(row.complete), bounced: BigInt(row.bounced) }]));
}

function response(token: string, totals: LedgerTotals | undefined): BalanceResponse {
  return {
    token,
    pending: totals?.pending ?? 0n,
    settled: totals?.settled ?? 0n,
    settlement_complete: totals?.settlementComplete ?? 0n,
    bounced: totals?.bounced ?? 0n,
  };
}

@Injectable()
export class Balances {
  constructor(@Inject(READ_MODEL) private readonly readModel: ReadModelClient) {}

  async card(programToken: string, cardToken: string): Promise<BalanceResponse> {
    if (!(await this.readModel.card.findFirst({ where: { token: cardToken, programToken }, select: { token: true } }))) throw new CardNotFound(cardToken);
    return response(cardToken, (await ledgerTotals(this.readModel, 'card_token', cardToken)).get(cardToken));
  }

  async fundingSource(programToken: string, fundingToken: string): Promise<BalanceResponse> {
    const known = await this.readModel.fundingSource.findFirst({ where: { token: fundingToken, programToken }, select: { token: true } });
    if (!known) throw new FundingSourceNotFound(fundingToken);
    return response(fundingToken, (await ledgerTotals(this.readModel, 'funding_token', fundingToken)).get(fundingToken));
  }
}
