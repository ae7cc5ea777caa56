import { Pool } from 'pg';
import { SimulateSettlementCommand } from '@ledger/contracts';
import {
  ProgramNotFound,
  programStreamId,
  TransactionNotFound,
  TransactionStateConflict,
  transactionDecider,
  transactionStreamId,
  type ExistingTransaction,
  type TransactionEvent,
} from '@ledger/domain';
import { createReadModelClient, migrateReadModel, transactionRow, type ReadModelClient } from '@ledger/read-model';
import { commandOrigin, fundingSourceAdded, ledgerHandlerSpecification, programCreated } from '@ledger/runtime/test';
import { workerDatabaseUrl } from '@ledger/test-support';
import { SimulateSettlementHandler } from './simulate-settlement.handler';

/**
 * A settlement decides on the transaction streams (the in-memory store), but "every SETTLING
 * transaction of the program" is a query, answered by the transactions read model: that part runs on
 * a real one (a schema of its own, migrated as production migrates it), holding the rows the
 * projector would hold for the streams given (transactionRow, its own row function).
 */
const SCHEMA = `settlement_${process.env.LEDGER_TEST_RUN ?? 'single'}`;
let pool: Pool;
let readModel: ReadModelClient;

beforeAll(async () => {
  pool = new Pool({ connectionString: await workerDatabaseUrl(), max: 2 });
  await pool.query(`drop schema if exists "${SCHEMA}" cascade`);
  await migrateReadModel(pool, { schema: SCHEMA });
  readModel = createReadModelClient(pool, { schema: SCHEMA });
});

beforeEach(() => pool.query(`truncate "${SCHEMA}".transactions`));

afterAll(async () => {
  await readModel.$disconnect();
  await pool.query(`drop schema if exists "${SCHEMA}" cascade`);
  await pool.end();
});

// The read model keys programs, cards, funding sources and transactions by uuid.
const PROGRAM = '1d2c3b4a-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const OTHER_PROGRAM = '9f8e7d6c-5b4a-4392-8172-6f5e4d3c2b1a';
const CARD = '0c000000-0000-4000-8000-000000000001';
const FUND_ENABLED = '0f000000-0000-4000-8000-000000000001';
const FUND_DISCONNECTED = '0f000000-0000-4000-8000-000000000002';
const FUND_GONE = '0f000000-0000-4000-8000-000000000003';
const origin = commandOrigin(PROGRAM);
const NOW = '2025-03-14T09:26:53.589Z';
const at = (minute: number) => new Date(Date.UTC(2025, 2, 14, 8, minute)).toISOString();

const source = (fundingToken: string, state: 'ENABLED' | 'DISCONNECTED') => fundingSourceAdded({ programToken: PROGRAM, fundingToken, state, accountName: 'Acme', created: at(0), isDefault: state === 'ENABLED' });
const program = [programCreated({ programToken: PROGRAM, created: at(0) }), source(FUND_ENABLED, 'ENABLED'), source(FUND_DISCONNECTED, 'DISCONNECTED')];

const transactionToken = (n: number) => `0a000000-0000-4000-8000-00000000000${n}`;
/** An approved authorization of 10.00 on the funding source, made at `minute` past eight and cleared (SETTLING) unless `pending`. */
function transaction(n: number, fundingToken: string, { minute = n, pending = false, programToken = PROGRAM } = {}): TransactionEvent[] {
  const token = transactionToken(n);
  const authorized: TransactionEvent = {
    type: 'TransactionAuthorized',
    data: {
      cardToken: CARD,
      programToken,
      transactionToken: token,
      eventToken: `evt_authorization_${n}`,
      amount: 1000,
      merchant: { acceptorId: 'acq_1', city: 'Berlin', country: 'DEU', descriptor: 'COFFEE', mcc: '5814', state: '' },
      merchantAmount: 1000,
      merchantCurrency: 'USD',
      authorizationCode: '123456',
      fundingToken,
      at: at(minute),
      result: 'APPROVED',
    },
  };
  return pending ? [authorized] : [authorized, { type: 'TransactionCleared', data: { transactionToken: token, eventToken: `evt_clearing_${n}`, amount: 1000, at: at(minute) } }];
}

const SETTLES = transactionToken(1);
const BOUNCES = transactionToken(2);
const FUNDING_GONE = transactionToken(3);
const PENDING = transactionToken(4);
const FOREIGN = transactionToken(5);
const streams = {
  [programStreamId(PROGRAM)]: program,
  // Made in another order than their tokens': the read model's list is oldest first.
  [transactionStreamId(SETTLES)]: transaction(1, FUND_ENABLED, { minute: 7 }),
  [transactionStreamId(BOUNCES)]: transaction(2, FUND_DISCONNECTED, { minute: 5 }),
  [transactionStreamId(FUNDING_GONE)]: transaction(3, FUND_GONE, { minute: 6 }),
  [transactionStreamId(PENDING)]: transaction(4, FUND_ENABLED, { pending: true }),
  [transactionStreamId(FOREIGN)]: transaction(5, FUND_ENABLED, { programToken: OTHER_PROGRAM }),
};

/** The read model as the projector leaves it for these streams. */
async function projected(tokens: readonly string[]): Promise<void> {
  await readModel.transaction.createMany({
    data: tokens.map((token) => {
      const events = streams[transactionStreamId(token)] as TransactionEvent[];
      const state = events.reduce(transactionDecider.evolve, transactionDecider.initialState()) as ExistingTransaction;
      return transactionRow(state, events.length - 1, new Date(NOW));
    }),
  });
}

const settle = (token?: string, programToken = PROGRAM) => new SimulateSettlementCommand({ ...origin, programToken }, token);
const settled = (token: string) => ({ [transactionStreamId(token)]: [{ type: 'TransactionSettled', data: { transactionToken: token, at: NOW } }] });
const bounced = (token: string, fundingState: string) => ({ [transactionStreamId(token)]: [{ type: 'TransactionBounced', data: { transactionToken: token, at: NOW, fundingState } }] });

describe('SimulateSettlementHandler', () => {
  const settlements = ledgerHandlerSpecification({ handler: (env) => new SimulateSettlementHandler(env, readModel), now: new Date(NOW) });

  describe('of one transaction', () => {
    it('settles a SETTLING transaction whose funding source is ENABLED', async () => {
      const { result } = await settlements.given(streams).when((handler) => handler.execute(settle(SETTLES))).then(settled(SETTLES));

      expect(result).toEqual({ settled: [SETTLES], bounced: [], position: expect.stringMatching(/^\d+\/\d+$/) });
    });

    it('bounces one whose funding source is in any other state, a source the program no longer has as DELETED', async () => {
      const disconnected = await settlements.given(streams).when((handler) => handler.execute(settle(BOUNCES))).then(bounced(BOUNCES, 'DISCONNECTED'));
      await settlements.given(streams).when((handler) => handler.execute(settle(FUNDING_GONE))).then(bounced(FUNDING_GONE, 'DELETED'));

      expect(disconnected.result).toEqual({ settled: [], bounced: [BOUNCES], position: expect.stringMatching(/^\d+\/\d+$/) });
    });

    it('refuses a transaction that is not SETTLING', async () => {
      await settlements.given(streams).when((handler) => handler.execute(settle(PENDING))).thenThrows(TransactionStateConflict, { message: expect.stringContaining('is PENDING; settlement needs a SETTLING transaction') });
      await settlements
        .given({ ...streams, [transactionStreamId(SETTLES)]: [...transaction(1, FUND_ENABLED, { minute: 7 }), { type: 'TransactionSettled', data: { transactionToken: SETTLES, at: at(9) } }] })
        .when((handler) => handler.execute(settle(SETTLES)))
        .thenThrows(TransactionStateConflict, { message: expect.stringContaining('is SETTLED') });
    });

    it("refuses a transaction that does not exist, and another program's alike", async () => {
      await settlements.given(streams).when((handler) => handler.execute(settle(transactionToken(9)))).thenThrows(TransactionNotFound, { transactionToken: transactionToken(9) });
      await settlements.given(streams).when((handler) => handler.execute(settle(FOREIGN))).thenThrows(TransactionNotFound, { transactionToken: FOREIGN });
    });

    it('refuses a program that does not exist', async () => {
      await settlements.given({}).when((handler) => handler.execute(settle(SETTLES))).thenThrows(ProgramNotFound, { programToken: PROGRAM });
    });
  });

  describe("of every SETTLING transaction of the program (the read model's list)", () => {
    it('settles or bounces each, oldest first, one write per transaction; PENDING ones and other programs’ are left alone', async () => {
      const { result, writes } = await settlements
        .given(streams)
        .when(async (handler) => {
          await projected([SETTLES, BOUNCES, FUNDING_GONE, PENDING, FOREIGN]);
          return handler.execute(settle());
        })
        .then({ ...settled(SETTLES), ...bounced(BOUNCES, 'DISCONNECTED'), ...bounced(FUNDING_GONE, 'DELETED') });

      expect(result).toEqual({ settled: [SETTLES], bounced: [BOUNCES, FUNDING_GONE], position: expect.stringMatching(/^\d+\/\d+$/) });
      expect(writes).toEqual([[transactionStreamId(BOUNCES)], [transactionStreamId(FUNDING_GONE)], [transactionStreamId(SETTLES)]]);
    });

    it('records nothing when the program has no SETTLING transaction', async () => {
      const { result } = await settlements
        .given(streams)
        .when(async (handler) => {
          await projected([PENDING, FOREIGN]);
          return handler.execute(settle());
        })
        .then({});

      expect(result).toEqual({ settled: [], bounced: [], position: null });
    });
  });
});
