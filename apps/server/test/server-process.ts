import { ChildProcess, spawn } from 'node:child_process';

/** The service as a process of its own, started from the build: how crash tests kill it for real. */
export interface ServerProcess {
  readonly child: ChildProcess;
  /** The base URL it printed once it took requests. */
  readonly baseUrl: string;
  /** The signal it ended by (null for an exit of its own). */
  readonly exited: Promise<NodeJS.Signals | null>;
  /** Resolves once a line of its output matches; rejects if it ends first. */
  waitFor(line: RegExp): Promise<void>;
}

/** Starts `entry` (a built server's main file) with `env`, and answers once it printed its base URL. */
export async function startServerProcess(root: string, entry: string, env: NodeJS.ProcessEnv): Promise<ServerProcess> {
  const child = spawn(process.execPath, [entry], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const waiters: { line: RegExp; resolve: () => void }[] = [];
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    for (const waiter of [...waiters]) if (waiter.line.test(output)) waiters.splice(waiters.indexOf(waiter), 1) && waiter.resolve();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const waitFor = (line: RegExp) =>
    new Promise<void>((resolve, reject) => {
      if (line.test(output)) return resolve();
      waiters.push({ line, resolve });
      void exited.then(() => reject(new Error(`server exited before ${line}:\n${output}`)));
    });
  await waitFor(/base URL:\s+\S+/);
  return { child, baseUrl: /base URL:\s+(\S+)/.exec(output)![1], exited, waitFor };
}

/** A call to a server process with an api-key, as a client sends one. */
export async function callServer(baseUrl: string, apiKey: string, method: string, urlPath: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${baseUrl}${urlPath}`, {
    method,
    headers: { authorization: `api-key ${apiKey}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}
