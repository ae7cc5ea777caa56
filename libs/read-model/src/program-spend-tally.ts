import { COUNTED_STATUSES, type SpendTally } from '@ledger/domain';
import type { PrismaClient } from './prisma-client';
import { sqlStringList } from './sql-literals';

/**
 * A program's transactions since `start`, tallied in the order they happened (time, then token: a
 * program has no single stream to order them by): their net sum and the lowest running sum. Exact:
 * PostgreSQL sums bigint as numeric and the text becomes a bigint. The clamping rule itself is the
 * domain's (`spendAfterCredits`). One query for the authorization's platform limits and for the
 * account's spend limits, so both count the same spend. A PENDING credit (the only negative pending
 * amount) counts nothing until it clears, as on the card (Lithic: unsettled credits do not count).
 */
export async function programSpendTally(readModel: Pick<PrismaClient, '$queryRawUnsafe'>, programToken: string, start: Date): Promise<SpendTally> {
  const [row] = await readModel.$queryRawUnsafe<{ net: string; lowest: string }[]>(
    `select coalesce(sum(amount), 0)::text as net, least(0, coalesce(min(running), 0))::text as lowest
       from (select amount, sum(amount) over (order by created, token rows unbounded preceding) as running
               from transactions
              where program_token = $1::uuid and status in (${sqlStringList(COUNTED_STATUSES)}) and created >= $2::timestamptz
                and not (status = 'PENDING' and amount < 0)) as window_entries`,
    programToken,
    start.toISOString(),
  );
  return { net: BigInt(row.net), lowest: BigInt(row.lowest) };
}
