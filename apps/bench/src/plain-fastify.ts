import Fastify from 'fastify';

/**
 * The bench's yardstick for the served stack's edge: Fastify alone (the copy @nestjs/platform-fastify
 * runs on), no Nest, no hooks, serving the bare route's path and body. Started as a process of its
 * own by http-stack-figures.ts, so its CPU is read from /proc like the service's; prints its port.
 */
async function main(): Promise<void> {
  const app = Fastify({ logger: false });
  app.get(process.env.BARE_ROUTE ?? '/health/live', async () => ({ status: 'ok' }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  process.stdout.write(`listening on ${port}\n`);
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

void main();
