import { INestApplicationContext } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { ApiKeyIssuedResult, CommandAccepted, CreateProgramCommand, IssueApiKeyCommand, ProgramCreatedResult, RevokeApiKeyCommand } from '@ledger/contracts';
import { EventStore, parsePosition, verifyChains } from '@ledger/event-store';
import { liveCheckpoint, replayReadModels } from '@ledger/projector';
import { checkLedger } from './ledger-check';
import { exportProgram } from './program-export';
import { LISTEN_USAGE } from './listen/listen-options';
import { AdminUsageError, isAdminCommand, readCommandLine } from './admin-command-line';
import { DigestFile, verifyExportAgainstDigest, verifyProofFile, verifyStoreAgainstDigest, writeDigestFile } from './ledger-audit';
import { readFileSync } from 'node:fs';
import { parsePublicKey } from '@ledger/ledger-proof';
import { Pool } from 'pg';
import type { ReadModelClient } from '@ledger/read-model';
import { DigestKeys, EVENT_STORE, LEDGER_CONFIG, LedgerConfig, ProjectionWatcher, READ_MODEL } from '@ledger/runtime';

export const ADMIN_USAGE = `Usage: npm run admin -- <command>
  create-program NAME                 new program with an api-key and a default funding source
  list-programs                       programs with their api-key ids
  issue-key PROGRAM_TOKEN             a further api-key for a program (rotation: issue, then revoke)
  revoke-key PROGRAM_TOKEN KEY_ID     the key stops working at once
  verify                              walks every stream's hash chain and checks the ledger view
                                      (per card, funding source and program: every balance against
                                      the sum of its events); exits 1 at the first altered, removed
                                      or reordered event or at a balance that differs
  verify --digest FILE                the whole store against a saved digest (admin digest, or
                                      GET /v1/audit/digest); names the first event that departs from it
  verify --file EXPORT.jsonl [--digest FILE]
                                      offline: every event of an export against its proof and the digest
  verify --proof FILE [--digest FILE] offline: one event's proof (GET /v1/audit/proof) against a digest
                                      (every verify takes --key PUBLIC_KEY_HEX, repeatable, to pin keys)
  digest --out FILE                   a signed digest of the whole log now, with its leaf hashes
  export --program TOKEN --out FILE [--digest FILE]
                                      a program's events as JSON Lines, as stored, each with its proof
                                      against a fresh digest (or the saved one), for offline verify
  replay                              rebuilds every read model from the events into a fresh schema and
                                      compares it row by row with the live one; exits 1 on any difference
${LISTEN_USAGE}`;

/** What a command prints (as JSON) and whether the process should exit successfully. */
export interface AdminOutcome {
  readonly output: unknown;
  readonly ok: boolean;
}

export async function runAdminCommand(app: INestApplicationContext, args: readonly string[]): Promise<AdminOutcome> {
  const [command] = args;
  if (command === 'export') {
    const { program: programToken, out: file, digest: digestFile } = readCommandLine('export', args).values;
    if (!programToken || !file) throw new AdminUsageError('export needs --program TOKEN and --out FILE');
    return { output: await exportProgram(app.get<EventStore>(EVENT_STORE), app.get(DigestKeys), programToken, file, digestFile ? readDigestFile(digestFile) : null), ok: true };
  }
  if (command === 'digest') {
    const file = readCommandLine('digest', args).values.out;
    if (!file) throw new AdminUsageError('digest needs --out FILE');
    return { output: await writeDigestFile(app.get<EventStore>(EVENT_STORE), app.get(DigestKeys), file), ok: true };
  }
  if (command === 'verify') {
    const offline = runOfflineVerify(args, app.get(DigestKeys).trusted);
    if (offline) return offline;
    const store = app.get<EventStore>(EVENT_STORE);
    const { digest: digestFile, key } = readCommandLine('verify', args).values;
    if (digestFile) {
      const report = await verifyStoreAgainstDigest(store, readDigestFile(digestFile), [...app.get(DigestKeys).trusted, ...pinnedKeys(key)]);
      return { output: report, ok: report.intact };
    }
    const report = await verifyChains(store, (events) => process.stderr.write(`\rverified ${events} events`));
    process.stderr.write('\n');
    const ledger = await checkLedger(store, app.get<ReadModelClient>(READ_MODEL), await liveCheckpoint(app.get(Pool)));
    const ok = report.firstBreak === null && ledger.length === 0;
    return { output: { ...report, intact: report.firstBreak === null, ledgerMismatches: ledger.slice(0, 20), ledgerMatches: ledger.length === 0 }, ok };
  }
  if (command === 'replay') {
    const report = await replayReadModels(app.get<EventStore>(EVENT_STORE), app.get(Pool), {
      eventsFeed: readCommandLine('replay', args).values.feed === true,
      onProgress: (events, rate) => process.stderr.write(`\rreplayed ${events} events (${Math.round(rate)} events/s)`),
    });
    process.stderr.write('\n');
    const { differences, ...summary } = report;
    return { output: { ...summary, identical: differences.length === 0, differences: differences.slice(0, 20), differenceCount: differences.length }, ok: differences.length === 0 };
  }
  return { output: await runProgramCommand(app, args), ok: true };
}

/**
 * `verify --file` and `verify --proof`: no database, only files and the trusted keys (this
 * installation's, when it has any, and every --key). Null for a verify that needs the store.
 */
export function runOfflineVerify(args: readonly string[], installationKeys: readonly Buffer[]): Promise<AdminOutcome> | null {
  const { file, proof, digest: digestFile, key } = readCommandLine('verify', args).values;
  if (!file && !proof) return null;
  const saved = digestFile ? readDigestFile(digestFile) : null;
  const trusted = [...installationKeys, ...pinnedKeys(key)];
  const outcome = async (): Promise<AdminOutcome> => {
    const report = file ? await verifyExportAgainstDigest(file, saved, trusted) : verifyProofFile(JSON.parse(readFileSync(proof as string, 'utf8')), saved, trusted);
    return { output: report, ok: report.intact };
  };
  return outcome();
}

function readDigestFile(file: string): DigestFile {
  return JSON.parse(readFileSync(file, 'utf8')) as DigestFile;
}

function pinnedKeys(keys: readonly string[] | undefined): Buffer[] {
  return (keys ?? []).map(parsePublicKey);
}

/** Program and key commands: their output is what to print as JSON. */
async function runProgramCommand(app: INestApplicationContext, args: readonly string[]): Promise<unknown> {
  const [command] = args;
  if (!isAdminCommand(command)) throw new AdminUsageError(command ? `Unknown command ${command}` : 'No command given');
  const rest = readCommandLine(command, args).positionals;
  const commands = app.get(CommandBus);
  const visible = async (position: string | null) => {
    if (position) await app.get(ProjectionWatcher).waitFor(parsePosition(position), app.get<LedgerConfig>(LEDGER_CONFIG).readYourWritesTimeoutMs);
  };
  const origin = (programToken: string) => ({ programToken, correlationId: randomUUID(), causationId: null });
  switch (command) {
    case 'create-program': {
      const name = rest.join(' ').trim();
      if (!name) throw new AdminUsageError('create-program needs a NAME');
      const result = await commands.execute<CreateProgramCommand, ProgramCreatedResult>(new CreateProgramCommand(randomUUID(), name));
      await visible(result.position);
      return { program_token: result.programToken, name, api_key: result.apiKey, api_key_id: result.keyId };
    }
    case 'list-programs': {
      const readModel = app.get<ReadModelClient>(READ_MODEL);
      const [programs, keys] = await Promise.all([readModel.program.findMany({ orderBy: { created: 'asc' } }), readModel.apiKey.findMany({ where: { revoked: false } })]);
      return programs.map((program) => ({
        program_token: program.token,
        name: program.name,
        created: program.created.toISOString(),
        api_key_ids: keys.filter((key) => key.programToken === program.token).map((key) => key.keyId),
      }));
    }
    case 'issue-key': {
      const [programToken] = rest;
      if (!programToken) throw new AdminUsageError('issue-key needs a PROGRAM_TOKEN');
      const result = await commands.execute<IssueApiKeyCommand, ApiKeyIssuedResult>(new IssueApiKeyCommand(origin(programToken)));
      await visible(result.position);
      return { program_token: programToken, api_key: result.apiKey, api_key_id: result.keyId };
    }
    case 'revoke-key': {
      const [programToken, keyId] = rest;
      if (!programToken || !keyId) throw new AdminUsageError('revoke-key needs a PROGRAM_TOKEN and a KEY_ID');
      const result = await commands.execute<RevokeApiKeyCommand, CommandAccepted>(new RevokeApiKeyCommand(origin(programToken), keyId));
      await visible(result.position);
      return { program_token: programToken, revoked_api_key_id: keyId };
    }
    default:
      // listen runs without the service's modules (main.ts starts it before them).
      throw new AdminUsageError(`${command} does not run with the service's modules`);
  }
}
