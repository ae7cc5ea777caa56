// The message brokers the test suite needs, started for `npm test` when none is configured, so a new
// user's run covers the Kafka, NATS and distributed suites as CI's does: Kafka from infra/kafka
// (fetched with Maven the first time), NATS from the nats-server on PATH. What this starts, the
// teardown stops; what was already running is used and left running. Under CI=true a broker that
// cannot be had fails the run instead of letting its suites report themselves skipped.
const { execFileSync, spawn } = require('node:child_process');
const net = require('node:net');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const NATS_PORT = 4222;

function portOpen(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    const done = (open) => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

function unavailable(what, why) {
  if (process.env.CI === 'true') throw new Error(`[tests] ${what} could not be started under CI=true: ${why}`);
  console.warn(`\n[tests] ${what} could not be started (${why}); the suites that need it report themselves skipped`);
}

/** Starts Kafka unless KAFKA_BROKERS names one; answers whether this run started it. */
function startKafka() {
  if (process.env.KAFKA_BROKERS) return false;
  try {
    const said = execFileSync('bash', [path.join(ROOT, 'infra/kafka/start.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    process.env.KAFKA_BROKERS = '127.0.0.1:9092';
    return /kafka: started/.test(said);
  } catch (error) {
    unavailable('Kafka (infra/kafka/start.sh)', String(error.stderr || error.message).trim().split('\n').pop());
    return false;
  }
}

/** Starts nats-server unless NATS_URL is set or a server answers on 127.0.0.1:4222; answers the process it started. */
async function startNats() {
  if (process.env.NATS_URL || (await portOpen(NATS_PORT))) return null;
  const server = spawn('nats-server', ['-a', '127.0.0.1', '-p', String(NATS_PORT)], { stdio: 'ignore', detached: true });
  const failed = new Promise((resolve) => server.once('error', (error) => resolve(error)));
  for (let i = 0; i < 100; i++) {
    const outcome = await Promise.race([failed, new Promise((resolve) => setTimeout(() => resolve(null), 100))]);
    if (outcome) {
      unavailable('NATS (nats-server)', outcome.message);
      return null;
    }
    if (await portOpen(NATS_PORT)) {
      server.unref();
      return server.pid;
    }
  }
  server.kill();
  unavailable('NATS (nats-server)', `nothing answered on 127.0.0.1:${NATS_PORT} within 10 s`);
  return null;
}

async function startTestBrokers() {
  const kafkaStarted = startKafka();
  const natsPid = await startNats();
  return { kafkaStarted, natsPid };
}

function stopTestBrokers({ kafkaStarted, natsPid }) {
  if (natsPid) {
    try {
      process.kill(natsPid);
    } catch {
      // Already gone.
    }
  }
  if (kafkaStarted) execFileSync('bash', [path.join(ROOT, 'infra/kafka/stop.sh')], { stdio: 'ignore' });
}

module.exports = { startTestBrokers, stopTestBrokers };
