// `npm run prisma:generate` and npm's postinstall: generates the read-model Prisma client into
// libs/read-model/src/generated/prisma, and the table descriptions the projector's SQL is built from
// into libs/read-model/src/generated/tables (tools/read-model-tables-generator.mjs), both git-ignored,
// from libs/read-model/prisma/schema.prisma, offline.
//
// Prisma 7's `prisma-client` generator needs no engine at all (queries are compiled by the wasm
// query compiler shipped in @prisma/client and run through @prisma/adapter-pg), but the CLI still
// resolves the schema-engine binary before generating and downloads it from binaries.prisma.sh when
// it is missing (npm 11 does not run @prisma/engines' postinstall, and these machines cannot reach
// the CDN). PRISMA_SCHEMA_ENGINE_BINARY pointing at any existing file satisfies that lookup; generate
// never runs it. CHECKPOINT_DISABLE stops the CLI's background update/telemetry check.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const self = fileURLToPath(import.meta.url);
const root = path.resolve(path.dirname(self), '..');
const require = createRequire(import.meta.url);
const duringInstall = process.env.npm_lifecycle_event === 'postinstall';

let cli;
try {
  cli = path.join(path.dirname(require.resolve('prisma/package.json')), 'build', 'index.js');
} catch {
  if (duringInstall) {
    // e.g. `npm install --omit=dev`: the prisma CLI is a dev dependency.
    console.warn('[prisma-generate] the prisma CLI is not installed; skipping client generation');
    process.exit(0);
  }
  console.error('[prisma-generate] the prisma CLI is not installed; run npm install first');
  process.exit(1);
}

const env = {
  ...process.env,
  // A placeholder that exists; a real binary given by the caller is kept (it is then used by `prisma migrate`).
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY || self,
  CHECKPOINT_DISABLE: '1',
  PRISMA_HIDE_UPDATE_MESSAGE: '1',
};

const result = spawnSync(
  process.execPath,
  [cli, 'generate', '--config', path.join(root, 'prisma.config.ts'), ...process.argv.slice(2)],
  { cwd: root, env, stdio: 'inherit' },
);
if (result.error) throw result.error;
process.exit(result.status ?? 1);
