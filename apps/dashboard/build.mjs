// Builds the dashboard with Vite into dist/dashboard (or --out DIR). tools/build.mjs calls
// buildDashboard() as part of `npm run build`; the browser tests run this file to build their own copy.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));

/** @param {string} outDir */
export async function buildDashboard(outDir) {
  const started = performance.now();
  await build({
    root: here,
    base: '/dashboard/',
    configFile: false,
    logLevel: 'warn',
    // JSX through Preact's automatic runtime; no framework plugin needed for a production build.
    oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
    build: { outDir, emptyOutDir: true, target: 'es2022', sourcemap: false, reportCompressedSize: false, modulePreload: { polyfill: false } },
  });
  return Math.round(performance.now() - started);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--out');
  const outDir = path.resolve(at > 0 ? process.argv[at + 1] : path.join(here, '../../dist/dashboard'));
  const ms = await buildDashboard(outDir);
  process.stderr.write(`built the dashboard into ${path.relative(process.cwd(), outDir) || '.'} in ${ms} ms\n`);
}
