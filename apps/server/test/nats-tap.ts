import { AddressInfo, createServer, Server, Socket, connect } from 'node:net';

/** One message a client published (PUB or HPUB), as it crossed the wire. */
export interface TappedMessage {
  readonly subject: string;
  readonly reply: string;
  readonly headers: string;
  readonly data: string;
}

/**
 * A TCP relay between the processes and the NATS server that keeps every byte crossing it, both ways,
 * and parses what clients publish. Unlike a subscriber on `>`, it is invisible to NATS: a subscriber
 * would be interest in every subject, so a request to a role with no replica left would wait for its
 * timeout instead of getting NATS's immediate "no responders" (the drain test relies on that).
 */
export class NatsTap {
  /** Everything each connection carried, per direction, as latin1 text (byte for byte). */
  private readonly streams: { text: string }[] = [];
  readonly published: TappedMessage[] = [];
  private readonly sockets = new Set<Socket>();
  private server: Server | null = null;

  constructor(private readonly upstream: { host: string; port: number }) {}

  /** Starts listening; returns the nats:// URL the processes should use. */
  async start(): Promise<string> {
    const server = createServer((client) => this.relay(client));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    return `nats://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => (this.server ? this.server.close(resolve) : resolve(undefined)));
  }

  /** The whole text of every connection in each direction: what a secrets scan reads. */
  transcripts(): string[] {
    return this.streams.map((stream) => stream.text);
  }

  private relay(client: Socket): void {
    const server = connect(this.upstream.port, this.upstream.host);
    this.sockets.add(client).add(server);
    const sent = { text: '' };
    const received = { text: '' };
    this.streams.push(sent, received);
    const parser = new PublishParser((message) => this.published.push(message));
    client.on('data', (chunk: Buffer) => {
      sent.text += chunk.toString('latin1');
      parser.push(chunk);
      server.write(chunk);
    });
    server.on('data', (chunk: Buffer) => {
      received.text += chunk.toString('latin1');
      client.write(chunk);
    });
    // A side that closes has its last bytes relayed before the other side is closed (end, not
    // destroy): a process that answers a command and then disconnects must not lose the answer here.
    const closeBoth = (how: 'end' | 'destroy') => () => {
      client[how]();
      server[how]();
      this.sockets.delete(client);
      this.sockets.delete(server);
    };
    client.on('close', closeBoth('end')).on('error', closeBoth('destroy'));
    server.on('close', closeBoth('end')).on('error', closeBoth('destroy'));
  }
}

/** Reads the client side of the NATS protocol: `PUB <subject> [reply] <bytes>` and `HPUB <subject> [reply] <header bytes> <total bytes>`, each followed by its payload. */
class PublishParser {
  private buffer = Buffer.alloc(0);

  constructor(private readonly onMessage: (message: TappedMessage) => void) {}

  push(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const end = this.buffer.indexOf('\r\n');
      if (end < 0) return;
      const parts = this.buffer.subarray(0, end).toString('latin1').split(' ').filter(Boolean);
      const op = parts[0]?.toUpperCase();
      if (op !== 'PUB' && op !== 'HPUB') {
        this.buffer = this.buffer.subarray(end + 2);
        continue;
      }
      const total = Number(parts[parts.length - 1]);
      const headerBytes = op === 'HPUB' ? Number(parts[parts.length - 2]) : 0;
      const fields = parts.slice(1, parts.length - (op === 'HPUB' ? 2 : 1));
      const start = end + 2;
      if (this.buffer.length < start + total + 2) return; // the payload has not all arrived yet
      const payload = this.buffer.subarray(start, start + total);
      this.onMessage({
        subject: fields[0],
        reply: fields[1] ?? '',
        headers: payload.subarray(0, headerBytes).toString('utf8'),
        data: payload.subarray(headerBytes).toString('utf8'),
      });
      this.buffer = this.buffer.subarray(start + total + 2);
    }
  }
}
