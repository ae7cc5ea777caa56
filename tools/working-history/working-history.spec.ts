import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sourceComments, workingHistory } from './working-history';

const repositoryRoot = path.resolve(__dirname, '../..');

describe('comments in the sources', () => {
  const comments = sourceComments(repositoryRoot);

  it('are all read', () => {
    // A scanner that silently found nothing would pass the check below.
    const files = new Set(comments.map((comment) => comment.file));
    expect(files).toContain('eslint.config.mjs');
    expect(files).toContain('apps/dashboard/src/main.tsx');
    expect(files).toContain('libs/event-store/src/hash-chain.ts');
    expect(files).toContain('tools/jest-global-setup.cjs');
  });

  it('say why the code is as it is, not in which working session it was written', () => {
    expect(workingHistory(comments)).toEqual([]);
  });
});

describe('the working-history check, on planted lines', () => {
  let root: string;

  beforeAll(() => {
    root = mkdtempSync(path.join(tmpdir(), 'working-history-'));
    const files: Record<string, string> = {
      'libs/a/src/line.ts': "const size = 1000;\n// 1000 gave 234 MiB (session 8).\nexport const batch = size;\n",
      'libs/a/src/block.ts': '/**\n * Events per read.\n * Measured in Session 12 and sessions 13.\n * The rate fell (session\n * 14: 507 to 397).\n */\nexport const n = 1;\n',
      'libs/a/src/trailing.ts': 'export const x = 1; // chosen in session 3\n',
      'apps/b/src/page.tsx': 'export const Page = () => (\n  <p>\n    {/* kept since session 4 */}\n    the session 5 text is not a comment\n  </p>\n);\n',
      'tools/c.cjs': "// the session's checkpoint: no number, not history\nmodule.exports = 1;\n",
      'libs/a/src/strings.ts':
        "export const s = 'see // session 6';\nexport const t = `/* session 7 */ ${s}`;\nexport const r = /session 8 '/;\nexport const u = \"http://x/session 9\";\n",
      'libs/a/node_modules/pkg/index.ts': '// session 10\n',
      'libs/a/src/generated/client.ts': '// session 11\n',
    };
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    }
  });

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('names each line of a comment that names a session, by file and line, and nothing in strings, JSX text or skipped folders', () => {
    expect(workingHistory(sourceComments(root)).sort()).toEqual([
      'apps/b/src/page.tsx:3: /* kept since session 4 */',
      'libs/a/src/block.ts:3: * Measured in Session 12 and sessions 13.',
      'libs/a/src/block.ts:4: * The rate fell (session',
      'libs/a/src/line.ts:2: // 1000 gave 234 MiB (session 8).',
      'libs/a/src/trailing.ts:1: // chosen in session 3',
    ]);
  });
});
