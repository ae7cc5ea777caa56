import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** One line of a comment in a source file; `line` counts from 1. */
export interface CommentLine {
  readonly file: string;
  readonly line: number;
  readonly text: string;
  /** The comment's next line without its `*` or `//`, so a phrase broken across lines is still read whole. */
  readonly next: string;
}

const SOURCE_FILE = /\.(ts|tsx|mjs|cjs|js)$/;
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'generated', '.nx', '.data', 'bench-results']);

/**
 * A comment that names a working session says when the code was written, not why it is as it is;
 * that history belongs in commit messages and docs/benchmarks.md.
 */
export const WORKING_HISTORY = /\bsessions? \d+/i;

/**
 * Every comment line of the sources under `folders` of `root`, and of the configuration files at its
 * top. Comments are found by the TypeScript parser, so `//` inside a string, a template or a regular
 * expression is not taken for one.
 */
export function sourceComments(root: string, folders: readonly string[] = ['apps', 'libs', 'tools']): CommentLine[] {
  const topFiles = readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isFile() && SOURCE_FILE.test(entry.name))
    .map((entry) => path.join(root, entry.name));
  const files = [...topFiles, ...folders.flatMap((folder) => sourceFiles(path.join(root, folder)))];
  return files.flatMap((file) => commentsOf(path.relative(root, file).split(path.sep).join('/'), readFileSync(file, 'utf8')));
}

/** The comment lines that carry working history, as `file:line: text`. */
export function workingHistory(comments: readonly CommentLine[]): string[] {
  return comments
    .filter((comment) => {
      const match = WORKING_HISTORY.exec(`${comment.text} ${comment.next}`);
      return match !== null && match.index < comment.text.length;
    })
    .map((comment) => `${comment.file}:${comment.line}: ${comment.text}`);
}

export function commentsOf(file: string, text: string): CommentLine[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, scriptKind(file));
  const seen = new Set<number>();
  const lines: CommentLine[] = [];
  const collect = (ranges: readonly ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) {
      if (seen.has(range.pos)) continue;
      seen.add(range.pos);
      const first = source.getLineAndCharacterOfPosition(range.pos).line;
      const commentLines = text.slice(range.pos, range.end).split('\n').map((line) => line.trim());
      commentLines.forEach((line, i) => lines.push({ file, line: first + i + 1, text: line, next: withoutMarker(commentLines[i + 1] ?? '') }));
    }
  };
  // Every comment is trivia before some token or at a node's end; JSX text is not trivia, whatever it holds.
  const visit = (node: ts.Node) => {
    if (node.kind === ts.SyntaxKind.JsxText) return;
    collect(ts.getLeadingCommentRanges(text, node.pos));
    collect(ts.getTrailingCommentRanges(text, node.end));
    node.getChildren(source).forEach(visit);
  };
  visit(source);
  return lines.sort((a, b) => a.line - b.line);
}

function withoutMarker(line: string): string {
  return line.replace(/^(\/\/+|\/?\*+\/?)\s*/, '');
}

function scriptKind(file: string): ts.ScriptKind {
  if (file.endsWith('.tsx')) return ts.ScriptKind.TSX;
  if (file.endsWith('.ts')) return ts.ScriptKind.TS;
  return ts.ScriptKind.JS;
}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? [] : sourceFiles(full);
    return SOURCE_FILE.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}
