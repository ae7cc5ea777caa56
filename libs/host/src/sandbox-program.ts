import { HttpException, INestApplicationContext, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { generateApiKey, hashApiKey } from '@ledger/auth';
import { ApiKeyIssuedResult, CreateProgramCommand, IssueApiKeyCommand, ledgerCodec, ProgramCreatedResult } from '@ledger/contracts';
import { ProgramEvent, programStreamId } from '@ledger/domain';
import { EventStore, GlobalPosition, parsePosition } from '@ledger/event-store';
import type { ReadModelClient } from '@ledger/read-model';
import { EVENT_STORE, keptSecret, LEDGER_CONFIG, LedgerConfig, ProjectionWatcher, READ_MODEL } from '@ledger/runtime';

/** The default sandbox program has a fixed token, so restarts find it again. */
export const SANDBOX_PROGRAM_TOKEN = '5a4db0c0-0000-4000-8000-000000000001';

/** Serializes the check-then-write below across every process on the database (several gateway replicas). */
const SANDBOX_LOCK_KEY = 'card-ledger:sandbox-program';

export interface EnsureSandboxOptions {
  /**
   * In the distributed set the program commands go to the card-service, which may not be up yet: until
   * this time (ms since the epoch) an unavailable card-service (503) is retried. Unset: no retries.
   */
  readonly retryUntil?: number;
}

/**
 * Makes sure the sandbox api-key works: SANDBOX_API_KEY when set, else a key made on first start and
 * kept in the data folder. Returns the clear key so start-up can print it.
 *
 * Safe with several gateways starting at once: one at a time (a PostgreSQL advisory lock), and the
 * key is looked for in the program's events, not only in the read model, so a projector that has not
 * caught up yet never makes a second copy of the key.
 */
export async function ensureSandboxProgram(app: INestApplicationContext, options: EnsureSandboxOptions = {}): Promise<string> {
  const config = app.get<LedgerConfig>(LEDGER_CONFIG);
  const apiKey = config.sandboxApiKey ?? keptSecret(config.dataDir, 'sandbox-api-key', generateApiKey).value;
  const readModel = app.get<ReadModelClient>(READ_MODEL);
  const known = await readModel.apiKey.findUnique({ where: { keyHash: hashApiKey(apiKey) } });
  if (known && !known.revoked) return apiKey;

  const lock = await app.get(Pool).connect();
  try {
    await lock.query('select pg_advisory_lock(hashtext($1))', [SANDBOX_LOCK_KEY]);
    const position = await withRetries(options, () => issueSandboxKey(app, apiKey));
    if (position) await app.get(ProjectionWatcher).waitFor(position, config.readYourWritesTimeoutMs);
    return apiKey;
  } finally {
    await lock.query('select pg_advisory_unlock(hashtext($1))', [SANDBOX_LOCK_KEY]).catch(() => undefined);
    lock.release();
  }
}

/** Creates the program, or issues the key on it; returns the position the read models must reach. */
async function issueSandboxKey(app: INestApplicationContext, apiKey: string): Promise<GlobalPosition | null> {
  const store = app.get<EventStore>(EVENT_STORE);
  const events = await store.readStream(programStreamId(SANDBOX_PROGRAM_TOKEN));
  if (hasActiveKey(events.map((event) => ledgerCodec<ProgramEvent>().decode(event)), hashApiKey(apiKey))) {
    return events[events.length - 1].position;
  }
  const commands = app.get(CommandBus);
  const correlationId = randomUUID();
  const result =
    events.length > 0
      ? await commands.execute<IssueApiKeyCommand, ApiKeyIssuedResult>(
          new IssueApiKeyCommand({ programToken: SANDBOX_PROGRAM_TOKEN, correlationId, causationId: null }, apiKey),
        )
      : await commands.execute<CreateProgramCommand, ProgramCreatedResult>(new CreateProgramCommand(correlationId, 'sandbox', SANDBOX_PROGRAM_TOKEN, apiKey));
  return parsePosition(result.position);
}

function hasActiveKey(events: readonly ProgramEvent[], keyHash: string): boolean {
  const active = new Map<string, string>();
  for (const event of events) {
    if (event.type === 'ApiKeyIssued') active.set(event.data.keyId, event.data.keyHash);
    else if (event.type === 'ApiKeyRevoked') active.delete(event.data.keyId);
  }
  return [...active.values()].includes(keyHash);
}

async function withRetries<T>(options: EnsureSandboxOptions, attempt: () => Promise<T>): Promise<T> {
  const logger = new Logger('SandboxProgram');
  for (let delay = 250; ; delay = Math.min(delay * 2, 2000)) {
    try {
      return await attempt();
    } catch (error) {
      const unavailable = error instanceof HttpException && error.getStatus() === 503;
      if (!unavailable || options.retryUntil === undefined || Date.now() + delay > options.retryUntil) throw error;
      logger.warn(`waiting for the card-service to set up the sandbox program: ${error.message}`);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
