import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * Jest compiles tests with SWC, which strips types without checking them. The SDK suites read
 * deliveries and answers into the `lithic` SDK's own types; here tsc checks those files with the
 * project's settings, so a field the SDK does not have (or a wrong type) fails `npm test`.
 */
const root = path.resolve(__dirname, '../../..');
const TYPED_SUITES = ['apps/server/test/lithic-sdk-events.spec.ts', 'apps/server/test/lithic-sdk-financial-accounts.spec.ts', 'apps/server/test/lithic-sdk-physical-cards.spec.ts', 'apps/server/test/lithic-sdk-three-ds.spec.ts', 'apps/server/test/lithic-sdk-three-ds-webhooks.spec.ts', 'apps/server/test/lithic-sdk-tokenizations.spec.ts', 'apps/server/test/lithic-sdk-tokenization-webhooks.spec.ts', 'apps/server/test/lithic-sdk-disputes.spec.ts', 'apps/server/test/lithic-sdk-dispute-webhooks.spec.ts'];

it('type-checks the SDK suites against the SDK types', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ledger-typecheck-'));
  try {
    const config = path.join(dir, 'tsconfig.json');
    writeFileSync(config, JSON.stringify({ extends: path.join(root, 'tsconfig.base.json'), compilerOptions: { noEmit: true, incremental: false, typeRoots: [path.join(root, 'node_modules', '@types')] }, include: [], files: TYPED_SUITES.map((file) => path.join(root, file)) }));
    const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const outcome = await promisify(execFile)(process.execPath, [tsc, '-p', config], { cwd: root }).then(
      () => '',
      (error: { stdout?: string; message: string }) => error.stdout || error.message,
    );
    expect(outcome).toBe('');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 240_000);
