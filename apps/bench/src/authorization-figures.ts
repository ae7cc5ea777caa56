import type { TargetRow } from './report';
import type { Pool } from 'pg';
import type { LoadResult } from './load';

/** Database-wide counters: transactions committed, and statements run when pg_stat_statements is loaded. */
export interface DatabaseCounters {
  readonly commits: number;
  readonly statements: number | null;
}

export async function databaseCounters(pool: Pool): Promise<DatabaseCounters> {
  // The view exists only where the extension was created; the library must also be preloaded
  // (the embedded server does it), else this fails and statements stay unmeasured.
  await pool.query('create extension if not exists pg_stat_statements').catch(() => undefined);
  // Statistics are cached per transaction; a fresh snapshot each time.
  await pool.query('select pg_stat_clear_snapshot()');
  const { rows } = await pool.query<{ commits: string }>(`select xact_commit::text as commits from pg_stat_database where datname = current_database()`);
  const statements = await pool
    .query<{ calls: string }>(`select coalesce(sum(calls), 0)::text as calls from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())`)
    .then((result) => Number(result.rows[0].calls))
    .catch(() => null);
  return { commits: Number(rows[0].commits), statements };
}

/** Per answered authorization between two counter readings (background work of the run included). */
export function perAuthorization(before: DatabaseCounters, after: DatabaseCounters, answered: number) {
  const per = (a: number, b: number) => Math.round(((b - a) / Math.max(1, answered)) * 100) / 100;
  return {
    commits: per(before.commits, after.commits),
    statements: before.statements === null || after.statements === null ? null : per(before.statements, after.statements),
  };
}

/** Issue 14's authorization targets that issue 24's (whole-service-figures.ts) did not replace, judged on this run. */
export function authorizationTargets(input: {
  manyCards: LoadResult;
  hotCard: LoadResult;
  atEighty: LoadResult;
  perAuthorization: { commits: number; statements: number | null };
}): TargetRow[] {
  const pct = (value: number) => `${Math.round(value * 100)}%`;
  const { manyCards, hotCard, atEighty } = input;
  const runs = [manyCards, hotCard, atEighty];
  const worst = Math.max(...runs.map((run) => run.max / Math.max(1, run.p99)));
  return [
    {
      figure: 'one hot card vs spread',
      measured: `${hotCard.requestsPerSecond} / ${manyCards.requestsPerSecond} = ${pct(hotCard.requestsPerSecond / Math.max(1, manyCards.requestsPerSecond))}, p99 ${hotCard.p99} ms`,
      target: '>= 50%, p99 <= 250 ms',
      met: hotCard.requestsPerSecond >= 0.5 * manyCards.requestsPerSecond && hotCard.p99 <= 250,
    },
    {
      figure: 'SQL statements per authorization',
      measured: `${input.perAuthorization.statements ?? 'not measured (pg_stat_statements not loaded)'}`,
      target: '<= 8',
      met: input.perAuthorization.statements !== null && input.perAuthorization.statements <= 8,
    },
    { figure: 'max latency in any authorization run vs its p99', measured: `${Math.round(worst * 10) / 10}x`, target: '<= 10x', met: worst <= 10 },
  ];
}
