// Runs ESLint with the workspace's eslint.config.mjs for boundaries.spec.ts, in a process of its own:
// ESLint loads its config with import(), which jest's module system does not allow.
// Input (stdin, JSON): { files?: string[], texts?: { filePath, text }[], fixtures?: string[] }. Output:
// the same lists of messages as JSON, written to the file named by the first argument. `fixtures` are
// files the workspace's lint skips (they break the rules on purpose), linted here all the same.
import { createProjectGraphAsync } from '@nx/devkit';
import { ESLint } from 'eslint';
import { readFileSync, writeFileSync } from 'node:fs';

const request = JSON.parse(readFileSync(0, 'utf8'));
// The boundary rule reads the cached project graph and, when there is none, skips with a mere warning.
await createProjectGraphAsync({ exitOnError: true });
const eslint = new ESLint({ cwd: process.cwd() });
const messagesOf = (results) =>
  results.flatMap((result) => result.messages.map(({ ruleId, line, message }) => ({ filePath: result.filePath, ruleId, line, message })));

const files = request.files ? await eslint.lintFiles(request.files) : [];
const texts = [];
for (const { filePath, text } of request.texts ?? []) texts.push(messagesOf(await eslint.lintText(text, { filePath })));
const fixtures = request.fixtures ? messagesOf(await new ESLint({ cwd: process.cwd(), ignore: false }).lintFiles(request.fixtures)) : [];
writeFileSync(process.argv[2], JSON.stringify({ linted: files.length, files: messagesOf(files), texts, fixtures }));
