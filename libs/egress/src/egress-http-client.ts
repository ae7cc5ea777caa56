import http from 'node:http';
import https from 'node:https';
import { isIP, LookupFunction, Socket } from 'node:net';
import { describeDestination, Destination, destinationOf } from './destination';
import { EgressFailure } from './egress-failure';
import { EgressGuard } from './egress-guard';

export interface EgressRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** For the whole exchange: connecting, sending, and reading the answer. */
  readonly timeoutMs: number;
  /** Read the answer's body (at most {@link MAX_ANSWER_BYTES}); otherwise the connection is closed once the status is in. */
  readonly readBody?: boolean;
}

export interface EgressResponse {
  readonly status: number;
  /** The answer's body when asked for; '' otherwise. */
  readonly body: string;
}

export const MAX_ANSWER_BYTES = 64 * 1024;
/** Idle kept-alive sockets close before the 5 s a Node server keeps them, so none is reused as the far end closes it. */
const IDLE_SOCKET_MS = 4000;

/**
 * The one way this service calls out. Every connection goes only where the egress guard allows:
 * a name is resolved for the socket by the guard's lookup, which refuses the connection unless every
 * address is allowed (so what was checked is what is connected to: no second resolution that a
 * rebinding DNS server could answer differently); a literal address is checked before connecting;
 * and once connected, the socket's remote address is checked again. Redirects are never followed:
 * a 3xx is an answer like any other.
 *
 * Failures are {@link EgressFailure}s: a class for the program and the details for the log.
 */
export class EgressHttpClient {
  private readonly agents = {
    'http:': new http.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS }),
    'https:': new https.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS }),
  };

  constructor(readonly guard: EgressGuard) {}

  /** POSTs the body; answers the status (and the body when asked) or throws an EgressFailure. */
  async post(request: EgressRequest): Promise<EgressResponse> {
    const destination = destinationOf(request.url);
    // A literal address skips the socket's lookup: check it here.
    if (isIP(destination.host)) await this.guard.addressesFor(destination);
    return this.exchange(destination, request);
  }

  /** Closes the kept-alive sockets. */
  close(): void {
    this.agents['http:'].destroy();
    this.agents['https:'].destroy();
  }

  private exchange(destination: Destination, request: EgressRequest): Promise<EgressResponse> {
    return new Promise<EgressResponse>((resolve, reject) => {
      let finished = false;
      const finish = (outcome: () => void) => {
        if (finished) return;
        finished = true;
        clearTimeout(deadline);
        outcome();
      };
      const fail = (error: unknown) => finish(() => reject(asEgressFailure(error, destination)));
      const transport = destination.protocol === 'https:' ? https : http;
      const outgoing = transport.request({
        hostname: destination.host,
        port: destination.port,
        path: `${destination.url.pathname}${destination.url.search}`,
        method: 'POST',
        headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
        agent: this.agents[destination.protocol],
        lookup: this.lookupFor(destination),
      });
      const deadline = setTimeout(() => {
        fail(new EgressFailure('timeout', `${describeDestination(destination)}: no answer within ${request.timeoutMs} ms`));
        outgoing.destroy();
      }, request.timeoutMs);
      outgoing.on('socket', (socket: Socket) => {
        if (!socket.connecting) return; // a kept-alive socket, checked when it connected
        socket.once('connect', () => {
          try {
            this.guard.checkConnected(destination, socket.remoteAddress);
          } catch (error) {
            outgoing.destroy(error as Error);
          }
        });
      });
      outgoing.on('error', fail);
      outgoing.on('response', (response) => {
        const status = response.statusCode ?? 0;
        if (!request.readBody) {
          response.destroy();
          finish(() => resolve({ status, body: '' }));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) return void response.destroy(new EgressFailure('connection_failed', `${describeDestination(destination)}: answer over ${MAX_ANSWER_BYTES} bytes`));
          chunks.push(chunk);
        });
        response.on('end', () => finish(() => resolve({ status, body: Buffer.concat(chunks).toString('utf8') })));
        response.on('error', fail);
        response.on('close', () => fail(new EgressFailure('connection_failed', `${describeDestination(destination)}: answer cut short`)));
      });
      outgoing.end(request.body);
    });
  }

  /** The socket's resolver: the guard's answer, every address allowed, or an EgressFailure. */
  private lookupFor(destination: Destination): LookupFunction {
    return (_hostname, options, callback) => {
      this.guard.addressesFor(destination).then(
        (addresses) => {
          const family = options.family === 'IPv6' || options.family === 6 ? 6 : options.family === 'IPv4' || options.family === 4 ? 4 : null;
          const usable = family === null ? addresses : addresses.filter((address) => address.family === family);
          if (usable.length === 0) return callback(new EgressFailure('connection_failed', `${describeDestination(destination)}: no IPv${family} address`), '', 0);
          if (options.all) return callback(null, usable.map(({ address, family }) => ({ address, family })));
          callback(null, usable[0].address, usable[0].family);
        },
        (error: Error) => callback(error, '', 0),
      );
    };
  }
}

/** An EgressFailure as it is; any other network error is a failed connection, its code and message kept for the log. */
function asEgressFailure(error: unknown, destination: Destination): EgressFailure {
  if (error instanceof EgressFailure) return error;
  const failure = error as NodeJS.ErrnoException;
  return new EgressFailure('connection_failed', `${describeDestination(destination)}: ${failure?.code ? `${failure.code} ` : ''}${failure?.message ?? String(error)}`);
}
