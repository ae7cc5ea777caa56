import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';

/**
 * The built apps run as child processes, the way they are deployed: the distributed set
 * (distributed.spec.ts) and each app alone with its own npm script (apps-start-alone.spec.ts).
 */

export const root = path.resolve(__dirname, '../../..');

/** The runnable apps of the ledger: each is dist/apps/<app>/src/main.js, started by `npm run start:<app>`. */
export const LEDGER_APPS = ['gateway', 'card-service', 'transaction-service', 'projector', 'webhooks'] as const;
export type LedgerAppName = (typeof LEDGER_APPS)[number] | 'server';

export function appMain(buildDir: string, app: LedgerAppName): string {
  return path.join(buildDir, 'dist/apps', app, 'src/main.js');
}

/**
 * Builds, then copies dist/ and package.json into a private folder inside the project (so
 * node_modules resolves from it): other suites rebuild dist/ while a suite still starts and restarts
 * processes from its copy. Returns the folder; remove it when done.
 */
export function copyOfTheBuild(label: string): string {
  const folder = path.join(root, '.data', label);
  for (let attempt = 1; ; attempt++) {
    try {
      execFileSync(process.execPath, ['tools/build.mjs'], { cwd: root, stdio: 'ignore' });
      rmSync(folder, { recursive: true, force: true });
      mkdirSync(folder, { recursive: true });
      cpSync(path.join(root, 'dist'), path.join(folder, 'dist'), { recursive: true });
      copyFileSync(path.join(root, 'package.json'), path.join(folder, 'package.json'));
      const missing = (['server', ...LEDGER_APPS] as const).map((app) => appMain(folder, app)).filter((main) => !existsSync(main));
      if (missing.length === 0) return folder;
      throw new Error(`${missing.join(', ')} missing after the copy`);
    } catch (error) {
      if (attempt < 3) continue; // another suite's build emptied dist/ under the copy: build again
      rmSync(folder, { recursive: true, force: true });
      throw error;
    }
  }
}

export interface LedgerProcess {
  readonly name: string;
  readonly child: ChildProcess;
  /** The API base URL (gateway), or the base URL of the health probes (the others). */
  readonly url: string;
  readonly exited: Promise<number | null>;
  output(): string;
}

/** A spawned child whose output is kept (the last 20 kB) and whose exit code is awaited. */
interface Spawned {
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  output(): string;
}

/** Every child the suite spawns, started or not, so that teardown can kill them all. */
export class LedgerProcesses {
  /** Those that printed their banner, in the order they did. */
  readonly started: LedgerProcess[] = [];
  private readonly spawned: ChildProcess[] = [];
  /** Children that lead a process group of their own: npm, with the app it started under it. */
  private readonly groupLeaders = new Set<ChildProcess>();

  constructor(private readonly buildDir: string) {}

  /** Runs the app's main.js directly with this environment; resolves once its banner names its URL. */
  start(name: string, app: LedgerAppName, env: NodeJS.ProcessEnv): Promise<LedgerProcess> {
    const spawned = this.spawn(process.execPath, ['--enable-source-maps', appMain(this.buildDir, app)], env, false);
    return this.untilBanner(name, spawned);
  }

  /**
   * Runs `npm run start:<app>` in the copy of the build: the app's own script, with its defaults
   * (NATS_URL, HEALTH_PORT) and heap flags. Answers at once. npm passes a SIGTERM on to the app; a
   * SIGKILL it could not pass on, so killAll kills npm's whole process group.
   */
  runScript(app: LedgerAppName, env: NodeJS.ProcessEnv): Spawned {
    return this.spawn('npm', ['run', '--silent', `start:${app}`], env, true);
  }

  /** SIGKILLs every child still running and waits for them to be gone. */
  async killAll(): Promise<void> {
    const running = this.spawned.filter((child) => child.exitCode === null && child.signalCode === null);
    const gone = running.map((child) => new Promise((resolve) => child.once('exit', resolve)));
    for (const child of running) {
      if (this.groupLeaders.has(child)) process.kill(-child.pid!, 'SIGKILL');
      else child.kill('SIGKILL');
    }
    await Promise.all(gone);
  }

  private spawn(command: string, args: string[], env: NodeJS.ProcessEnv, ownGroup: boolean): Spawned {
    const child = spawn(command, args, { cwd: this.buildDir, env, stdio: ['ignore', 'pipe', 'pipe'], detached: ownGroup });
    this.spawned.push(child);
    if (ownGroup) this.groupLeaders.add(child);
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return { child, exited, output: () => output };
  }

  private untilBanner(name: string, { child, exited, output }: Spawned): Promise<LedgerProcess> {
    return new Promise<LedgerProcess>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${name} did not start within 45 s:\n${output()}`)), 45_000);
      const watch = () => {
        const url = /base URL:\s+(\S+)/.exec(output())?.[1] ?? /health URL:\s+(\S+)\/health\/ready/.exec(output())?.[1];
        if (!url) return;
        clearTimeout(timer);
        child.stdout!.off('data', watch);
        resolve({ name, child, url, exited, output });
      };
      child.stdout!.on('data', watch);
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`${name} exited with ${code} while starting:\n${output()}`));
      });
    }).then((started) => {
      this.started.push(started);
      return started;
    });
  }
}
