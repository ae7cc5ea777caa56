import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** Repository-relative path (forward slashes) of a source file to the files it imports. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'generated']);

/**
 * Every import between the TypeScript sources under `folders` of `root`, resolved the way the
 * compiler resolves them (relative paths and the `@ledger/*` aliases of tsconfig.base.json). Type-only
 * imports and re-exports count: a dependency in the types is a dependency. Imports of packages are
 * left out; only files of the repository are nodes.
 */
export function importGraph(root: string, folders: readonly string[] = ['libs', 'apps']): ImportGraph {
  const options = compilerOptions(root);
  const graph = new Map<string, string[]>();
  for (const file of folders.flatMap((folder) => sourceFiles(path.join(root, folder)))) {
    const imported = ts
      .preProcessFile(readFileSync(file, 'utf8'), true, true)
      .importedFiles.map((reference) => ts.resolveModuleName(reference.fileName, file, options, ts.sys).resolvedModule)
      .filter((resolved): resolved is ts.ResolvedModuleFull => resolved !== undefined && !resolved.isExternalLibraryImport)
      .map((resolved) => relative(root, resolved.resolvedFileName))
      .filter((target) => !target.startsWith('..'));
    graph.set(relative(root, file), [...new Set(imported)]);
  }
  return graph;
}

function compilerOptions(root: string): ts.CompilerOptions {
  const configPath = path.join(root, 'tsconfig.base.json');
  const { config, error } = ts.readConfigFile(configPath, ts.sys.readFile);
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  return ts.parseJsonConfigFileContent({ compilerOptions: config.compilerOptions, files: [] }, ts.sys, root).options;
}

function sourceFiles(folder: string): string[] {
  let entries;
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

function relative(root: string, file: string): string {
  return path.relative(root, file).split(path.sep).join('/');
}

/** The import cycles: groups of two or more files that reach each other, and files that import themselves. */
export function importCycles(graph: ImportGraph): string[][] {
  // Tarjan's strongly connected components, iterative so deep chains cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; edge: number }[] = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const targets = graph.get(frame.node) ?? [];
      if (frame.edge < targets.length) {
        const target = targets[frame.edge++];
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, edge: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      const selfImport = (graph.get(frame.node) ?? []).includes(frame.node);
      if (component.length > 1 || selfImport) cycles.push(component.sort());
    }
  }
  return cycles;
}
