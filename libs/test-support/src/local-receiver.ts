import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';

/** One request as the receiver saw it: the raw text for signature checks, the body parsed when it is JSON. */
export interface ReceivedRequest {
  readonly method: string;
  /** The path with its query string, as sent. */
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly raw: string;
  /** The raw text parsed as JSON, or null when it is not JSON; `any` because each spec reads its own shape. */
  readonly body: any;
}

/** How the receiver answers one request. An object body is sent as JSON; a string as it is; none, an empty body. */
export interface ReceiverAnswer {
  readonly status: number;
  readonly body?: string | object;
  readonly headers?: Record<string, string>;
  /** Answer this late: for callers' timeouts. */
  readonly delayMs?: number;
}

/** Decides each answer; `null` never answers (the connection hangs until `stop()`). */
export type AnswerRule = (request: ReceivedRequest) => ReceiverAnswer | null;

const ANSWER_OK: AnswerRule = () => ({ status: 200, body: {} });

/**
 * A real HTTP receiver on 127.0.0.1 for integration tests (webhooks, the authorization stream, the
 * egress client): it records every request and answers as the spec's rule says. Nothing is mocked:
 * the code under test makes real connections to it.
 */
export class LocalReceiver {
  /** Every request, in the order their bodies ended. */
  readonly requests: ReceivedRequest[] = [];
  private server: Server | null = null;
  private readonly pending = new Set<NodeJS.Timeout>();
  private listeningPort: number | null = null;

  constructor(private readonly answer: AnswerRule = ANSWER_OK) {}

  /** Listens on 127.0.0.1 on a port the system picks. */
  async start(): Promise<this> {
    const server = createServer((request, response) => {
      let raw = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (raw += chunk));
      request.on('end', () => {
        const received: ReceivedRequest = { method: request.method ?? '', path: request.url ?? '/', headers: request.headers, raw, body: parsedJson(raw) };
        this.requests.push(received);
        const answer = this.answer(received);
        if (answer === null) return;
        const send = () => {
          const json = answer.body !== undefined && typeof answer.body !== 'string';
          response.writeHead(answer.status, { ...(json ? { 'content-type': 'application/json' } : {}), ...answer.headers });
          response.end(json ? JSON.stringify(answer.body) : (answer.body ?? ''));
        };
        if (!answer.delayMs) return send();
        const timer = setTimeout(() => {
          this.pending.delete(timer);
          send();
        }, answer.delayMs);
        this.pending.add(timer);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    this.listeningPort = (server.address() as AddressInfo).port;
    return this;
  }

  get port(): number {
    if (this.listeningPort === null) throw new Error('the LocalReceiver is not started: await start() first');
    return this.listeningPort;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** A URL of this receiver; `host` spells the address another way (a name, `localhost`). */
  url(path: string, host = '127.0.0.1'): string {
    return `http://${host}:${this.port}${path}`;
  }

  /** The requests to exactly this path (query string included). */
  requestsTo(path: string): ReceivedRequest[] {
    return this.requests.filter((request) => request.path === path);
  }

  /** Forgets what was received, for a test that counts only its own requests. */
  clear(): void {
    this.requests.length = 0;
  }

  /** Drops open (also hanging and keep-alive) connections first: `close()` alone waits for them. */
  async stop(): Promise<void> {
    this.pending.forEach(clearTimeout);
    this.pending.clear();
    const server = this.server;
    if (!server) return;
    this.server = null;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

function parsedJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

/** A port that was just free and is closed again: nothing listens there (a refused connection, or a port to hand out). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A URL nothing listens on, on a `closedPort()`. */
export async function deadUrl(path = '/down'): Promise<string> {
  return `http://127.0.0.1:${await closedPort()}${path}`;
}
