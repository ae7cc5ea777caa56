// Transpiles apps/ and libs/ to dist/ with SWC, rewriting the @ledger/* aliases to relative paths,
// and builds the dashboard (apps/dashboard, a browser app) with Vite into dist/dashboard.
// Type checking is `npm run typecheck`; keeping it out of the build keeps `npm start` quick.
import { createRequire } from 'node:module';
import { copyFile, mkdir, readdir, writeFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDashboard } from '../apps/dashboard/build.mjs';

const require = createRequire(import.meta.url);
const swc = require('@swc/core');
const swcOptions = require('./swc-options.cjs');

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'dist');
/** Browser code, built by Vite below, not by SWC for Node. */
const DASHBOARD_APP = path.join(root, 'apps', 'dashboard');

async function* sourceFiles(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && full !== DASHBOARD_APP) yield* sourceFiles(full);
    } else if (entry.name.endsWith('.sql')) {
      yield full; // copied as is: SQL migrations are looked up next to the compiled code
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') && !/\.(spec|test)\.ts$/.test(entry.name)) {
      yield full;
    }
  }
}

await rm(out, { recursive: true, force: true });
const options = swcOptions({ rewritePaths: true });
let count = 0;
const jobs = [];
for (const top of ['apps', 'libs']) {
  for await (const file of sourceFiles(path.join(root, top))) {
    if (file.includes(`${path.sep}test${path.sep}`)) continue;
    if (file.endsWith('.sql')) {
      const target = path.join(out, path.relative(root, file));
      jobs.push(mkdir(path.dirname(target), { recursive: true }).then(() => copyFile(file, target)));
      continue;
    }
    jobs.push(
      swc.transformFile(file, { ...options, filename: file, swcrc: false }).then(async ({ code }) => {
        const target = path.join(out, path.relative(root, file)).replace(/\.ts$/, '.js');
        await mkdir(path.dirname(target), { recursive: true });
        await writeFile(target, code);
        count++;
      }),
    );
  }
}
await Promise.all(jobs);
process.stderr.write(`built ${count} files into dist/\n`);
const dashboardMs = await buildDashboard(path.join(out, 'dashboard'));
process.stderr.write(`built the dashboard into dist/dashboard in ${dashboardMs} ms\n`);
