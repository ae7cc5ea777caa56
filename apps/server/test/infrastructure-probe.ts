import { execFileSync } from 'node:child_process';

/** A TCP endpoint a suite needs, named for the skip message. */
export interface ProbeTarget {
  readonly what: string;
  readonly host: string;
  readonly port: number;
}

/** The servers of a NATS_URL (comma-separated, scheme optional). */
export function natsTargets(natsUrl: string): ProbeTarget[] {
  return natsUrl.split(',').map((server) => {
    const url = new URL(server.includes('://') ? server : `nats://${server}`);
    return { what: `NATS at ${server}`, host: url.hostname, port: Number(url.port || 4222) };
  });
}

/** The brokers of a KAFKA_BROKERS list. */
export function kafkaTargets(brokers: string): ProbeTarget[] {
  return brokers.split(',').map((broker) => {
    const [host, port] = broker.trim().split(':');
    return { what: `Kafka broker ${broker}`, host, port: Number(port || 9092) };
  });
}

/**
 * Which targets do not accept a TCP connection, as a skip reason, or null when all do. Synchronous
 * (jest declares suites synchronously): a child node tries each port.
 */
export function unreachable(targets: readonly ProbeTarget[]): string | null {
  const probe = `const net = require('node:net');
    Promise.all(JSON.parse(process.argv[1]).map((t) => new Promise((done) => {
      const socket = net.connect(t.port, t.host);
      socket.setTimeout(1500);
      socket.on('connect', () => { socket.destroy(); done(null); });
      socket.on('error', (error) => done(t.what + ' (' + error.message + ')'));
      socket.on('timeout', () => { socket.destroy(); done(t.what + ' (timed out)'); });
    }))).then((failed) => process.stdout.write(failed.filter(Boolean).join('; ')));`;
  const failed = execFileSync(process.execPath, ['-e', probe, JSON.stringify(targets)], { encoding: 'utf8' });
  return failed ? `unreachable: ${failed}` : null;
}
