import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { Client, Pool } from 'pg';
import { ledgerCodec, type LedgerEvent } from '@ledger/contracts';
import { cardStreamId, programStreamId } from '@ledger/domain';
import { chainEvents, PostgresEventStore } from '@ledger/event-store';
import { replayReadModels } from '@ledger/projector';
import { migrateReadModel } from '@ledger/read-model';
import { BulkSeeder } from './bulk-seed';
import { logReadCeiling } from './log-read-ceiling';
import { replayDerivationAlone } from './replay-derivation-alone';

/**
 * The replay rate against the log's read ceiling alone, without the whole bench: a database of its
 * own beside REPLAY_DATABASE_URL's server, seeded as the bench's large log is (200 cards, then bulk
 * authorizations), then the read ceiling and the replay measured in turns over the same first events,
 * so a neighbour's load on a shared machine shows as a spread rather than a bias. Between them, the
 * replay's Node.js stage alone: the same reads and the same derivation, nothing written (what bounds
 * a replay when PostgreSQL keeps up), with the CPU this process spent on each.
 *
 * node dist/apps/bench/src/replay-alone.js [rounds]; REPLAY_KEEP_DATABASE=1 keeps the seeded database
 * for the next run (it is reused when it exists).
 */
const SERVER_URL = process.env.REPLAY_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const DATABASE = process.env.REPLAY_DATABASE ?? 'replay_alone';
const EVENTS = Number(process.env.REPLAY_EVENTS ?? 200_000);
const CARDS = 200;

const log = (line: string) => process.stderr.write(`[replay-alone] ${line}\n`);

async function main(rounds: number): Promise<void> {
  const admin = new Client({ connectionString: SERVER_URL });
  await admin.connect();
  const exists = (await admin.query(`select 1 from pg_database where datname = $1`, [DATABASE])).rowCount === 1;
  if (!exists) await admin.query(`create database "${DATABASE}"`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${DATABASE}`;
  const pool = new Pool({ connectionString: url.toString(), max: 8 });
  try {
    const store = new PostgresEventStore(pool);
    await store.migrate();
    await migrateReadModel(pool);
    const stored = Number((await pool.query(`select count(*) from events`)).rows[0].count);
    if (stored < EVENTS) await seed(pool, EVENTS - stored);
    // The replay stops where the live projector stands: here, at the head of the log.
    const head = await store.headPosition();
    if (!head) throw new Error('nothing seeded');
    await pool.query(
      `insert into projector_checkpoints (name, commit_position, prepare_position, updated) values ('read-models', $1, $2, now())
       on conflict (name) do update set commit_position = excluded.commit_position, prepare_position = excluded.prepare_position`,
      [head.commit.toString(), head.prepare.toString()],
    );
    await pool.query('analyze');
    const reads: number[] = [];
    const derives: number[] = [];
    const replays: number[] = [];
    for (let round = 1; round <= rounds; round++) {
      const read = await withCpu(() => logReadCeiling(store, EVENTS));
      reads.push(read.result.eventsPerSecond);
      const derive = await withCpu(() => replayDerivationAlone(store, pool, EVENTS));
      derives.push(derive.result);
      const replay = await withCpu(() => replayReadModels(store, pool, { maxEvents: EVENTS, schema: `replay_alone_${process.pid}` }));
      replays.push(Math.round(replay.result.eventsPerSecond));
      log(
        `round ${round}: read ceiling ${reads[round - 1]}/s (node ${read.cpuSeconds} s), derive alone ${derives[round - 1]}/s (node ${derive.cpuSeconds} s), ` +
          `replay ${replays[round - 1]}/s (node ${replay.cpuSeconds} s) over ${replay.result.events} events: ${percent(replays[round - 1], reads[round - 1])} of the read ceiling`,
      );
    }
    const range = (values: number[]) => `${Math.min(...values)}-${Math.max(...values)}`;
    const ratios = replays.map((replay, i) => replay / reads[i]);
    log(`read ceiling ${range(reads)}/s, derive alone ${range(derives)}/s, replay ${range(replays)}/s, replay/ceiling per round ${ratios.map((r) => `${Math.round(r * 100)}%`).join(' ')}`);
    await store.close();
  } finally {
    await pool.end();
    if (!process.env.REPLAY_KEEP_DATABASE) await admin.query(`drop database if exists "${DATABASE}"`);
    await admin.end();
  }
}

async function withCpu<T>(work: () => Promise<T>): Promise<{ result: T; cpuSeconds: string }> {
  const before = process.cpuUsage();
  const result = await work();
  const spent = process.cpuUsage(before);
  return { result, cpuSeconds: ((spent.user + spent.system) / 1e6).toFixed(2) };
}

/** One program with a funding source and 200 cards, as the bench creates them, then bulk authorizations (two events each). */
async function seed(pool: Pool, events: number): Promise<void> {
  const store = new PostgresEventStore(pool);
  const codec = ledgerCodec<LedgerEvent>();
  const programToken = randomUUID();
  const fundingToken = randomUUID();
  const created = new Date().toISOString();
  const metadata = () => ({ eventId: randomUUID(), programToken, correlationId: randomUUID(), causationId: null, occurredAt: created });
  const encode = (event: LedgerEvent) => codec.encode(event, metadata());
  const program = programStreamId(programToken);
  const cards = Array.from({ length: CARDS }, () => ({ cardToken: randomUUID(), fundingToken }));
  await store.appendMany([
    {
      streamId: program,
      expected: 'no_stream',
      events: chainEvents(program, null, [
        encode({ type: 'ProgramCreated', data: { programToken, name: 'Replay alone', created } }),
        encode({
          type: 'FundingSourceAdded',
          data: { programToken, fundingToken, type: 'DEPOSITORY_CHECKING', state: 'ENABLED', nickname: 'Main', accountName: 'Bench', lastFour: '6789', isDefault: true, created },
        }),
      ]),
    },
    ...cards.map(({ cardToken }) => ({
      streamId: cardStreamId(cardToken),
      expected: 'no_stream' as const,
      events: chainEvents(cardStreamId(cardToken), null, [
        encode({
          type: 'CardCreated',
          data: {
            cardToken,
            programToken,
            cardType: 'DIGITAL_WALLET',
            state: 'OPEN',
            memo: 'bench',
            spendLimit: 0,
            spendLimitDuration: 'TRANSACTION',
            fundingToken,
            expMonth: '07',
            expYear: '2031',
            lastFour: cardToken.slice(-4),
            panHash: `hash-${cardToken}`,
            panEncrypted: `pan-${cardToken}`,
            pinHash: null,
            created,
          },
        }),
      ]),
    })),
  ]);
  await store.close();
  log(`seeding ${Math.ceil(events / 2)} authorizations`);
  const started = Date.now();
  await new BulkSeeder(pool, programToken, cards).seed(Math.ceil(events / 2), (done) => process.stderr.write(`\r[replay-alone] seeded ${done}`));
  process.stderr.write('\n');
  log(`seeded in ${Math.round((Date.now() - started) / 1000)} s`);
}

function percent(part: number, whole: number): string {
  return `${Math.round((part / whole) * 100)}%`;
}

main(Number(process.argv[2] ?? 3)).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
