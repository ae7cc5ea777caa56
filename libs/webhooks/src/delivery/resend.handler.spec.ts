import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { Pool } from 'pg';
import { ResendWebhookMessageCommand, WebhookMessageNotFound } from '@ledger/contracts';
import { EventSubscriptionNotFound } from '@ledger/domain';
import { EgressGuard, EgressHttpClient, EgressPolicy } from '@ledger/egress';
import { migrateReadModel } from '@ledger/read-model';
import { workerDatabaseUrl } from '@ledger/test-support';
import { ResendWebhookMessageHandler } from './resend.handler';
import { WebhookDispatcher } from './webhook-dispatcher';

/**
 * A resend changes one row of the webhook outbox, a PostgreSQL table, and appends no event: it runs
 * on a real read model (a schema of its own, migrated as production migrates it, reached through the
 * pool's search path as the handler's unqualified SQL expects). The dispatcher is a real one, not
 * started: what matters here is whether the handler wakes it.
 */
const SCHEMA = `resend_${process.env.LEDGER_TEST_RUN ?? 'single'}`;
const PROGRAM = '1d2c3b4a-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const OTHER_PROGRAM = '9f8e7d6c-5b4a-4392-8172-6f5e4d3c2b1a';
const SUBSCRIPTION = '0a000000-0000-4000-8000-000000000001';
const OTHER_SUBSCRIPTION = '0a000000-0000-4000-8000-000000000002';
const SIBLING_SUBSCRIPTION = '0a000000-0000-4000-8000-000000000003';
const MESSAGE = '0b000000-0000-4000-8000-000000000001';
const OTHER_MESSAGE = '0b000000-0000-4000-8000-000000000002';
const SIBLING_MESSAGE = '0b000000-0000-4000-8000-000000000003';
const created = new Date('2026-11-23T08:00:00.000Z');

let pool: Pool;
let http: EgressHttpClient;
let dispatcher: WebhookDispatcher;
let wakes: jest.SpyInstance;

beforeAll(async () => {
  Logger.overrideLogger(false);
  pool = new Pool({ connectionString: await workerDatabaseUrl(), max: 3, options: `-c search_path=${SCHEMA}` });
  await pool.query(`drop schema if exists "${SCHEMA}" cascade`);
  await migrateReadModel(pool, { schema: SCHEMA });
  http = new EgressHttpClient(new EgressGuard(EgressPolicy.of([])));
  const unused = { execute: () => Promise.reject(new Error('the dispatcher is not started here')) };
  dispatcher = new WebhookDispatcher(pool, { decrypt: (sealed: string) => sealed }, unused, http, { retrySchedule: [0], pollMs: 1000, timeoutMs: 1000 });
});

beforeEach(async () => {
  await pool.query('truncate event_subscriptions, webhook_messages');
  wakes = jest.spyOn(dispatcher, 'wake');
  await pool.query(
    `insert into event_subscriptions (token, program_token, url, description, secret_sealed, created, updated)
     values ($1, $2, 'https://hooks.acme.example/in', '', 'whsec_x', $5, $5), ($3, $4, 'https://hooks.other.example/in', '', 'whsec_y', $5, $5),
            ($6, $2, 'https://hooks.acme.example/too', '', 'whsec_z', $5, $5)`,
    [SUBSCRIPTION, PROGRAM, OTHER_SUBSCRIPTION, OTHER_PROGRAM, created, SIBLING_SUBSCRIPTION],
  );
  await pool.query(
    `insert into webhook_messages (id, event_id, subscription_token, program_token, event_type, body, status, attempts, round_attempts, next_attempt_at, created, delivered_at)
     values ($1, 'event-1', $2, $3, 'card.created', '{}', 'delivered', 3, 3, null, $6, $6), ($4, 'event-2', $5, $7, 'card.created', '{}', 'failed', 9, 9, null, $6, null),
            ($8, 'event-1', $9, $3, 'card.created', '{}', 'failed', 9, 9, null, $6, null)`,
    [MESSAGE, SUBSCRIPTION, PROGRAM, OTHER_MESSAGE, OTHER_SUBSCRIPTION, created, OTHER_PROGRAM, SIBLING_MESSAGE, SIBLING_SUBSCRIPTION],
  );
});

afterEach(() => wakes.mockRestore());

afterAll(async () => {
  http.close();
  await pool.query(`drop schema if exists "${SCHEMA}" cascade`);
  await pool.end();
});

const rows = async () =>
  (await pool.query<{ id: string; status: string; attempts: number; round_attempts: number; next_attempt_at: Date | null }>('select id, status, attempts, round_attempts, next_attempt_at from webhook_messages order by id')).rows;

describe('ResendWebhookMessageHandler', () => {
  const resend = () => new ResendWebhookMessageHandler(pool, dispatcher);

  it('makes the message pending and due now with the whole retry schedule ahead, attempts still counted, and wakes the dispatcher', async () => {
    const before = Date.now();

    await resend().execute(new ResendWebhookMessageCommand(PROGRAM, SUBSCRIPTION, MESSAGE));

    const [resent, ...others] = await rows();
    expect(resent).toMatchObject({ id: MESSAGE, status: 'pending', attempts: 3, round_attempts: 0 });
    expect(resent.next_attempt_at?.getTime()).toBeGreaterThanOrEqual(before - 1);
    expect(resent.next_attempt_at?.getTime()).toBeLessThanOrEqual(Date.now());
    expect(others).toEqual([OTHER_MESSAGE, SIBLING_MESSAGE].map((id) => ({ id, status: 'failed', attempts: 9, round_attempts: 9, next_attempt_at: null })));
    expect(wakes).toHaveBeenCalledTimes(1);
  });

  it("refuses a subscription of another program, as a missing one, and changes nothing", async () => {
    await expect(resend().execute(new ResendWebhookMessageCommand(PROGRAM, OTHER_SUBSCRIPTION, OTHER_MESSAGE))).rejects.toThrow(EventSubscriptionNotFound);
    expect((await rows()).map((row) => row.status)).toEqual(['delivered', 'failed', 'failed']);
    expect(wakes).not.toHaveBeenCalled();
  });

  it("refuses a message that is not the subscription's, another of the program's subscriptions included, and changes nothing", async () => {
    await expect(resend().execute(new ResendWebhookMessageCommand(PROGRAM, SUBSCRIPTION, OTHER_MESSAGE))).rejects.toThrow(WebhookMessageNotFound);
    await expect(resend().execute(new ResendWebhookMessageCommand(PROGRAM, SUBSCRIPTION, SIBLING_MESSAGE))).rejects.toThrow(WebhookMessageNotFound);
    expect((await rows()).map((row) => row.status)).toEqual(['delivered', 'failed', 'failed']);
    expect(wakes).not.toHaveBeenCalled();
  });
});
