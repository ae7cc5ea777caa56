import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { formatPosition, type GlobalPosition } from '@ledger/event-store';
import { migrateReadModel } from '@ledger/read-model';
import { eventually, workerDatabaseUrl } from '@ledger/test-support';
import { PROJECTION_CHANNEL, PROJECTION_LISTENER_APPLICATION_NAME, ProjectionWatcher } from './projection-watcher';

/**
 * The read-your-writes watcher against this worker's PostgreSQL, with its poll slowed to a minute so
 * that only notifications and the LISTEN connection's own wake-ups can move a waiter. Each test uses
 * a projector name of its own: the checkpoint rows and notifications of other specs do not reach it.
 */
describe('ProjectionWatcher', () => {
  let pool: Pool;
  const watchers: ProjectionWatcher[] = [];

  beforeAll(async () => {
    pool = new Pool({ connectionString: await workerDatabaseUrl(), max: 4, idleTimeoutMillis: 0 });
    await migrateReadModel(pool);
  });
  afterAll(async () => {
    for (const watcher of watchers) await watcher.stop();
    await pool.end();
  });

  const slowPollingWatcher = async (projector: string): Promise<ProjectionWatcher> => {
    const watcher = new ProjectionWatcher(pool, projector, 60_000);
    watchers.push(watcher);
    await watcher.start();
    return watcher;
  };
  /** Moves the checkpoint row without a notification, as a commit made while nobody listened. */
  const saveCheckpoint = (projector: string, position: GlobalPosition) =>
    pool.query(
      `insert into projector_checkpoints (name, commit_position, prepare_position, updated) values ($1, $2, $3, now())
       on conflict (name) do update set commit_position = excluded.commit_position, prepare_position = excluded.prepare_position`,
      [projector, position.commit.toString(), position.prepare.toString()],
    );
  const listenerPids = async (): Promise<number[]> =>
    (
      await pool.query<{ pid: number }>(`select pid from pg_stat_activity where datname = current_database() and application_name = $1 and query ilike 'listen %'`, [
        PROJECTION_LISTENER_APPLICATION_NAME,
      ])
    ).rows.map((row) => row.pid);

  it('wakes a waiter with the position the projector notifies', async () => {
    const projector = `spec-${randomUUID()}`;
    const watcher = await slowPollingWatcher(projector);
    const waiting = watcher.waitFor({ commit: 10n, prepare: 10n }, 10_000);
    await pool.query('select pg_notify($1, $2)', [PROJECTION_CHANNEL, `${projector}|${formatPosition({ commit: 10n, prepare: 10n })}`]);
    await expect(waiting).resolves.toBeUndefined();
  });

  it('after its LISTEN connection is dropped, reads the checkpoint again on the new one and wakes the waiter', async () => {
    const projector = `spec-${randomUUID()}`;
    const others = new Set(await listenerPids());
    const watcher = await slowPollingWatcher(projector);
    const [ours] = await eventually('the watcher listening', async () => {
      const pids = (await listenerPids()).filter((pid) => !others.has(pid));
      return pids.length === 1 && pids;
    });

    const waiting = watcher.waitFor({ commit: 20n, prepare: 20n }, 10_000);
    // The connection goes, and the checkpoint moves past the waiter with no notification anyone hears.
    await pool.query('select pg_terminate_backend($1)', [ours]);
    await saveCheckpoint(projector, { commit: 20n, prepare: 20n });
    await expect(waiting).resolves.toBeUndefined();
    // And the new connection hears notifications again.
    await eventually('a new LISTEN connection', async () => (await listenerPids()).some((pid) => !others.has(pid) && pid !== ours));
    const next = watcher.waitFor({ commit: 30n, prepare: 30n }, 10_000);
    await pool.query('select pg_notify($1, $2)', [PROJECTION_CHANNEL, `${projector}|${formatPosition({ commit: 30n, prepare: 30n })}`]);
    await expect(next).resolves.toBeUndefined();
  });
});
