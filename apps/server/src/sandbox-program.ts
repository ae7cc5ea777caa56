import { INestApplicationContext } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { generateApiKey, hashApiKey } from '@ledger/auth';
import { ApiKeyIssuedResult, CreateProgramCommand, IssueApiKeyCommand, ProgramCreatedResult } from '@ledger/contracts';
import { programStreamId } from '@ledger/domain';
import { EventStore, parsePosition } from '@ledger/event-store';
import type { ReadModelClient } from '@ledger/read-model';
import { EVENT_STORE, keptSecret, LEDGER_CONFIG, LedgerConfig, ProjectionWatcher, READ_MODEL } from '@ledger/runtime';

/** The default sandbox program has a fixed token, so restarts find it again. */
export const SANDBOX_PROGRAM_TOKEN = '5a4db0c0-0000-4000-8000-000000000001';

/**
 * Makes sure the sandbox api-key works: SANDBOX_API_KEY when set, else a key made on first start and
 * kept in the data folder. Returns the clear key so start-up can print it.
 */
export async function ensureSandboxProgram(app: INestApplicationContext): Promise<string> {
  const config = app.get<LedgerConfig>(LEDGER_CONFIG);
  const apiKey = config.sandboxApiKey ?? keptSecret(config.dataDir, 'sandbox-api-key', generateApiKey).value;
  const readModel = app.get<ReadModelClient>(READ_MODEL);
  const known = await readModel.apiKey.findUnique({ where: { keyHash: hashApiKey(apiKey) } });
  if (known && !known.revoked) return apiKey;

  const commands = app.get(CommandBus);
  const store = app.get<EventStore>(EVENT_STORE);
  const exists = (await store.readStream(programStreamId(SANDBOX_PROGRAM_TOKEN), { maxCount: 1 })).length > 0;
  const correlationId = randomUUID();
  const result = exists
    ? await commands.execute<IssueApiKeyCommand, ApiKeyIssuedResult>(
        new IssueApiKeyCommand({ programToken: SANDBOX_PROGRAM_TOKEN, correlationId, causationId: null }, apiKey),
      )
    : await commands.execute<CreateProgramCommand, ProgramCreatedResult>(new CreateProgramCommand(correlationId, 'sandbox', SANDBOX_PROGRAM_TOKEN, apiKey));
  await app.get(ProjectionWatcher).waitFor(parsePosition(result.position), config.readYourWritesTimeoutMs);
  return apiKey;
}
