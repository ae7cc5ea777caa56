import { Pool } from 'pg';
import { workerDatabaseUrl } from '@ledger/test-support';
import { preparedSql, textOf } from './prepared-sql';

describe('preparedSql', () => {
  it('names a text by its content: the same text the same name, another text another, within PostgreSQL’s 63 bytes', () => {
    const text = 'select $1::int as n';
    expect(preparedSql(text)).toEqual(preparedSql(text));
    expect(preparedSql(text).name).not.toBe(preparedSql('select $1::int as m').name);
    expect(Buffer.byteLength(preparedSql(text).name)).toBeLessThanOrEqual(63);
    expect(textOf(preparedSql(text))).toBe(text);
    expect(textOf(text)).toBe(text);
  });

  it('is prepared once on a connection and run again by its name', async () => {
    const pool = new Pool({ connectionString: await workerDatabaseUrl(), max: 1 });
    try {
      const statement = preparedSql('select $1::int + 1 as n');
      const answers = [];
      for (const n of [1, 2, 3]) answers.push((await pool.query<{ n: number }>(statement, [n])).rows[0].n);
      expect(answers).toEqual([2, 3, 4]);
      // One connection, so this asks the connection the statement ran on.
      const { rows } = await pool.query<{ name: string; statement: string }>('select name, statement from pg_prepared_statements');
      expect(rows).toEqual([{ name: statement.name, statement: statement.text }]);
    } finally {
      await pool.end();
    }
  });
});
