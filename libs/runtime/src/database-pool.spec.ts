import { testAdminUrl } from '@ledger/test-support';
import { databasePool } from './database-pool';

describe('databasePool: the service connections to PostgreSQL', () => {
  // The admin database keeps the server's own default (JIT on), unlike the workers' test databases.
  it('turns JIT off for every connection, whatever the server defaults to', async () => {
    const pool = databasePool(testAdminUrl(), 2);
    try {
      const [one, two] = await Promise.all([pool.query('show jit'), pool.query('select pg_sleep(0.01), current_setting($1) as jit', ['jit'])]);
      expect([one.rows[0].jit, two.rows[0].jit]).toEqual(['off', 'off']);
    } finally {
      await pool.end();
    }
  });

  it("leaves the operator's own options in the connection string to win", async () => {
    const url = new URL(testAdminUrl());
    url.searchParams.set('options', '-c jit=on');
    const pool = databasePool(url.toString(), 1);
    try {
      expect((await pool.query('show jit')).rows[0].jit).toBe('on');
    } finally {
      await pool.end();
    }
  });
});
