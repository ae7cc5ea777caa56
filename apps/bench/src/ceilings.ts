import { Pool } from 'pg';

/**
 * The commit ceiling the authorization rate is judged against, measured in the same run at the same
 * concurrency: what the PostgreSQL server sustains in single-row INSERT + COMMIT transactions. The
 * other ceiling, the bare route, is in http-stack-figures.ts.
 */
export async function commitCeiling(databaseUrl: string, concurrency: number, seconds: number): Promise<{ commitsPerSecond: number }> {
  const pool = new Pool({ connectionString: databaseUrl, max: concurrency });
  await pool.query('create table if not exists bench_commit_ceiling (id bigserial primary key, payload text not null)');
  const until = Date.now() + seconds * 1000;
  let commits = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < until) {
        await pool.query('insert into bench_commit_ceiling (payload) values ($1)', ['x'.repeat(200)]);
        commits++;
      }
    }),
  );
  await pool.query('drop table bench_commit_ceiling');
  await pool.end();
  return { commitsPerSecond: Math.round(commits / seconds) };
}
