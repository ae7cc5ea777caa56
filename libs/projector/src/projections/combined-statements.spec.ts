import { Pool } from 'pg';
import { workerDatabaseUrl } from '@ledger/test-support';
import { combinedStatements } from './combined-statements';

describe('combinedStatements', () => {
  const upsert = (table: string, key: string) => ({ sql: `insert into ${table} (k, v) values ($1, $2) on conflict (k) do update set v = excluded.v`, values: [key, `${table} ${key}`] });

  it('makes one statement of many, each part reading its own values', () => {
    const [one, ...more] = combinedStatements([upsert('a', 'x'), { sql: 'delete from b where k = any($1)', values: [['y']] }, upsert('c', 'z')]);
    expect(more).toEqual([]);
    expect(one.sql).toBe(
      'with part0 as (insert into a (k, v) values ($1, $2) on conflict (k) do update set v = excluded.v), ' +
        'part1 as (delete from b where k = any($3)), ' +
        'part2 as (insert into c (k, v) values ($4, $5) on conflict (k) do update set v = excluded.v) select',
    );
    expect(one.values).toEqual(['x', 'a x', ['y'], 'z', 'c z']);
  });

  it('starts another statement rather than pass the limit on parameters, and leaves a lone statement as it was', () => {
    const statements = combinedStatements([upsert('a', '1'), upsert('a', '2'), upsert('a', '3')], 4);
    expect(statements.map((statement) => statement.values)).toEqual([
      ['1', 'a 1', '2', 'a 2'],
      ['3', 'a 3'],
    ]);
    expect(statements[1]).toEqual(upsert('a', '3'));
  });

  it('refuses a part that begins with its own "with", which PostgreSQL would refuse inside another', () => {
    expect(() => combinedStatements([upsert('a', '1'), { sql: 'with x as (select 1) delete from a', values: [] }])).toThrow(/cannot begin with "with"/);
  });

  describe('on PostgreSQL', () => {
    const schema = `combined_statements_${process.env.LEDGER_TEST_RUN ?? 'single'}`;
    let pool: Pool;

    beforeAll(async () => {
      pool = new Pool({ connectionString: await workerDatabaseUrl(), max: 1 });
      await pool.query(`drop schema if exists "${schema}" cascade`);
      await pool.query(`create schema "${schema}"`);
      for (const table of ['a', 'b']) await pool.query(`create table "${schema}".${table} (k text primary key, v text)`);
    });

    afterAll(async () => {
      await pool?.query(`drop schema if exists "${schema}" cascade`);
      await pool?.end();
    });

    it('writes every part in the one statement', async () => {
      await pool.query(`insert into "${schema}".b (k, v) values ('gone', 'old'), ('kept', 'old')`);
      const parts = [upsert(`"${schema}".a`, 'x'), upsert(`"${schema}".b`, 'kept'), { sql: `delete from "${schema}".b where k = any($1)`, values: [['gone']] }, upsert(`"${schema}".a`, 'y')];
      const [statement, ...more] = combinedStatements(parts);
      expect(more).toEqual([]);
      await pool.query(statement.sql, [...statement.values]);
      expect((await pool.query(`select k, v from "${schema}".a order by k`)).rows).toEqual([
        { k: 'x', v: `"${schema}".a x` },
        { k: 'y', v: `"${schema}".a y` },
      ]);
      expect((await pool.query(`select k, v from "${schema}".b order by k`)).rows).toEqual([{ k: 'kept', v: `"${schema}".b kept` }]);
    });
  });
});
