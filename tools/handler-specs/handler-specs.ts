import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** A command handler class, where it is defined, and whether it decides on the event store. */
export interface CommandHandlerClass {
  readonly name: string;
  readonly file: string;
  /** It takes the pipeline environment: its decisions go through the event store, so its spec runs on the in-memory one. */
  readonly onEventStore: boolean;
}

const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'generated']);
const HANDLER = /@CommandHandler\([^)]*\)\s*export class (\w+)/g;

/** Every `@CommandHandler` class in the libraries' sources under `root`. */
export function commandHandlers(root: string): CommandHandlerClass[] {
  return typeScriptFiles(path.join(root, 'libs'))
    .filter((file) => !file.endsWith('.spec.ts'))
    .flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      const relative = path.relative(root, file).split(path.sep).join('/');
      return [...text.matchAll(HANDLER)].map((match) => ({ name: match[1], file: relative, onEventStore: classText(text, match.index).includes('PIPELINE_ENVIRONMENT') }));
    });
}

/**
 * The handlers with no spec where they live: one that decides on the event store needs a spec that
 * names it and runs on the in-memory store (`ledgerHandlerSpecification`); any other (the webhook
 * delivery's, on PostgreSQL tables) a spec that names it. Answers `name (file)` for each.
 */
export function handlersWithoutSpecs(root: string): string[] {
  const specs = typeScriptFiles(path.join(root, 'libs'))
    .filter((file) => file.endsWith('.spec.ts'))
    .map((file) => readFileSync(file, 'utf8'));
  return commandHandlers(root)
    .filter(({ name, onEventStore }) => !specs.some((spec) => new RegExp(`\\b${name}\\b`).test(spec) && (!onEventStore || spec.includes('ledgerHandlerSpecification'))))
    .map(({ name, file }) => `${name} (${file})`);
}

/** The class's text, from its decorator to the next exported class: where its constructor names what it is given. */
function classText(text: string, classAt: number): string {
  const next = text.indexOf('export class ', text.indexOf('export class ', classAt) + 1);
  return text.slice(classAt, next < 0 ? undefined : next);
}

function typeScriptFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? [] : typeScriptFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}
