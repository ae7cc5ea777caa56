import { randomUUID } from 'node:crypto';
import { encodeEvent, type LedgerEvent } from '@ledger/contracts';
import { cardStreamId, programStreamId, transactionStreamId, type AuthorizationFacts } from '@ledger/domain';
import { chainEvents, NO_STREAM, PostgresEventStore, type ChainHead, type EventMetadata, type NewEvent } from '@ledger/event-store';
import { databasePool } from '@ledger/runtime';
import { cpuReading } from './process-cpu';

/** The service's own pool (libs/runtime's infrastructure module): the ceiling writes as it does. */
const POOL_SIZE = 20;
/** A schema of its own, so the running service's followers never see these events. */
const SCHEMA = 'bench_write_ceiling';

export interface WriteCeiling {
  readonly writesPerSecond: number;
  /** CPU per write: this process (encoding, chaining, the driver) and the PostgreSQL server. */
  readonly nodeMs: number;
  readonly postgresMs: number | null;
}

/**
 * The ceiling of an authorization's own write on this machine, measured in the same run: the one
 * atomic append an approval makes (the card's decision, the transaction it opens, the program's
 * version checked), chained and encoded as the pipeline does, through the service's own
 * PostgresEventStore and its group commit, from `concurrency` writers on `cards` cards each written
 * by one writer; nothing else: no HTTP, no decision, no reads, no follower. No authorization can be
 * answered faster than it can be written, so the every-role rate is judged against this too.
 */
export async function authorizationWriteCeiling(databaseUrl: string, postgresPort: number | null, concurrency: number, seconds: number, cards: number): Promise<WriteCeiling> {
  const pool = databasePool(databaseUrl, POOL_SIZE);
  await pool.query(`drop schema if exists ${SCHEMA} cascade`);
  const store = new PostgresEventStore(pool, { schema: SCHEMA });
  try {
    await store.migrate();
    const programToken = randomUUID();
    const program = programStreamId(programToken);
    await store.append(program, chainEvents(program, null, [event({ type: 'ProgramCreated', data: { programToken, name: 'bench', created: now() } }, programToken)]), NO_STREAM);
    const heads = await Promise.all(Array.from({ length: cards }, () => openCard(store, programToken)));
    const until = Date.now() + seconds * 1000;
    let writes = 0;
    const before = cpuReading(process.pid, postgresPort);
    await Promise.all(
      Array.from({ length: concurrency }, async (_, writer) => {
        // Writer w writes cards w, w + concurrency, ...: no two writers race for one card.
        const own = heads.filter((_, index) => index % concurrency === writer);
        for (let turn = 0; Date.now() < until && own.length > 0; turn++) {
          const card = own[turn % own.length];
          card.head = await approve(store, programToken, program, card);
          writes++;
        }
      }),
    );
    const after = cpuReading(process.pid, postgresPort);
    const per = (a: number, b: number) => Math.round(((b - a) / Math.max(1, writes)) * 1000) / 1000;
    return {
      writesPerSecond: Math.round(writes / seconds),
      nodeMs: per(before.serviceMs, after.serviceMs),
      postgresMs: before.postgresMs === null || after.postgresMs === null ? null : per(before.postgresMs, after.postgresMs),
    };
  } finally {
    await store.close();
    await pool.query(`drop schema if exists ${SCHEMA} cascade`);
    await pool.end();
  }
}

interface CardHead {
  readonly cardToken: string;
  head: ChainHead;
}

const now = () => new Date().toISOString();

function event(domainEvent: LedgerEvent, programToken: string): NewEvent {
  const metadata: EventMetadata = { eventId: randomUUID(), correlationId: randomUUID(), causationId: null, programToken, occurredAt: now(), writtenAt: now() };
  return encodeEvent(domainEvent, metadata);
}

async function openCard(store: PostgresEventStore, programToken: string): Promise<CardHead> {
  const cardToken = randomUUID();
  const streamId = cardStreamId(cardToken);
  const [created] = chainEvents(streamId, null, [
    event(
      {
        type: 'CardCreated',
        data: {
          cardToken,
          programToken,
          cardType: 'DIGITAL_WALLET',
          state: 'OPEN',
          memo: '',
          spendLimit: 0,
          spendLimitDuration: 'FOREVER',
          fundingToken: randomUUID(),
          expMonth: '11',
          expYear: '2031',
          lastFour: '1234',
          panHash: 'x'.repeat(64),
          panEncrypted: 'v1:' + 'x'.repeat(80),
          pinHash: null,
          created: now(),
        },
      },
      programToken,
    ),
  ]);
  const { position } = await store.append(streamId, [created], NO_STREAM);
  return { cardToken, head: { streamVersion: 0, hash: String(created.metadata.hash), position } };
}

/** One approval's write, shaped as the authorization's: card decision, new transaction, program checked. */
async function approve(store: PostgresEventStore, programToken: string, program: string, card: CardHead): Promise<ChainHead> {
  const transactionToken = randomUUID();
  const facts: AuthorizationFacts = {
    cardToken: card.cardToken,
    programToken,
    transactionToken,
    eventToken: randomUUID(),
    amount: 125,
    merchant: { acceptorId: '174030075991', city: 'NEW YORK', country: 'USA', descriptor: 'Bench Store', mcc: '5999', state: 'NY' },
    merchantAmount: 125,
    merchantCurrency: 'USD',
    authorizationCode: '123456',
    fundingToken: randomUUID(),
    at: now(),
  };
  const cardStream = cardStreamId(card.cardToken);
  const transactionStream = transactionStreamId(transactionToken);
  const decided = chainEvents(cardStream, card.head, [event({ type: 'CardAuthorizationApproved', data: facts }, programToken)]);
  const opened = chainEvents(transactionStream, null, [event({ type: 'TransactionAuthorized', data: { ...facts, result: 'APPROVED' } }, programToken)]);
  const [written] = await store.appendAtomically([
    { streamId: cardStream, events: decided, expected: card.head.streamVersion },
    { streamId: transactionStream, events: opened, expected: NO_STREAM },
    { streamId: program, events: [], expected: 0 },
  ]);
  return { streamVersion: written.nextExpectedVersion, hash: String(decided[0].metadata.hash), position: written.position ?? undefined };
}
