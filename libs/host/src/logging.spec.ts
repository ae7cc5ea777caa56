import { Logger } from '@nestjs/common';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { eventually } from '@ledger/test-support';
import { batchedLogStream, createLedgerLogger, PinoNestLogger, RequestLog } from './logging';

/** The JSON lines a PinoNestLogger writes, time left out. */
function capture(level = 'info') {
  const lines: string[] = [];
  const nest = new PinoNestLogger(createLedgerLogger(level, { write: (line: string) => void lines.push(line) }));
  const fields = () => lines.map((line) => Object.entries(JSON.parse(line) as Record<string, unknown>).filter(([key]) => key !== 'time'));
  return { nest, fields };
}

describe('PinoNestLogger', () => {
  it("writes nestjs-pino's line: context, then the message", () => {
    const { nest, fields } = capture();
    nest.warn('idle connection lost', 'Database');
    expect(fields()).toEqual([[['level', 40], ['service', 'card-ledger'], ['context', 'Database'], ['msg', 'idle connection lost']]]);
  });

  it('puts the request id of a line made inside a request first, where a logger bound to the request put it', () => {
    const { nest, fields } = capture();
    // What `new Logger('HTTP').error(...)` passes on: an error's stack slot, then the context.
    nest.error({ request_id: 'r-1', msg: 'GET /v1/cards r-1: Error: boom' }, undefined, 'HTTP');
    expect(fields()).toEqual([[['level', 50], ['service', 'card-ledger'], ['request_id', 'r-1'], ['context', 'HTTP'], ['msg', 'GET /v1/cards r-1: Error: boom']]]);
  });

  it('logs an Error as err, and Nest\'s (message, stack) error form as an err with that stack', () => {
    const { nest, fields } = capture();
    nest.error(new Error('boom'), 'Worker');
    nest.error('failed', 'Error: failed\n    at somewhere (file.js:1:1)', 'ExceptionHandler');
    const [first, second] = fields().map((line) => Object.fromEntries(line));
    expect(first).toMatchObject({ context: 'Worker', err: { type: 'Error', message: 'boom' } });
    expect(second).toMatchObject({ context: 'ExceptionHandler', err: { message: 'failed', stack: 'Error: failed\n    at somewhere (file.js:1:1)' } });
  });

  it('leaves out what the level does not let through', () => {
    const { nest, fields } = capture('warn');
    nest.log('started', 'Ledger');
    nest.debug?.('detail', 'Ledger');
    expect(fields()).toEqual([]);
  });

  it("is what a Nest Logger writes through once it is the app's logger", () => {
    const { nest, fields } = capture();
    Logger.overrideLogger(nest);
    try {
      new Logger('Idempotency').error({ request_id: 'r-2', msg: 'could not store' });
    } finally {
      Logger.overrideLogger(new Logger());
    }
    expect(fields()).toEqual([[['level', 50], ['service', 'card-ledger'], ['request_id', 'r-2'], ['context', 'Idempotency'], ['msg', 'could not store']]]);
  });
});

describe('RequestLog', () => {
  /** A real HTTP server whose every request is watched, answering with the status the path names. */
  async function served(level: string) {
    const lines: string[] = [];
    const log = new RequestLog(createLedgerLogger(level, { write: (line: string) => void lines.push(line) }));
    let next = 0;
    const server = createServer((request, response) => {
      log.watch(request, response, `request-${++next}`);
      response.statusCode = Number(request.url?.split('/')[1]?.split('?')[0]);
      response.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const ask = (path: string) => fetch(`http://127.0.0.1:${port}${path}`).then((answer) => answer.text());
    const fields = () => lines.map((line) => Object.entries(JSON.parse(line) as Record<string, unknown>).filter(([key]) => key !== 'time' && key !== 'responseTime' && key !== 'err'));
    return { ask, lines, fields, close: () => new Promise((resolve) => server.close(resolve)) };
  }

  it("writes pino-http's line for each answer: request id, method and path without the query, status, level by status", async () => {
    const server = await served('info');
    try {
      await server.ask('/200?pan=4111111111111111');
      await server.ask('/404');
      await server.ask('/500');
      const line = (status: number) => [['service', 'card-ledger'], ['request_id', expect.any(String)], ['req', { method: 'GET', path: `/${status}` }], ['res', { status }]];
      expect(server.fields()).toEqual([
        [['level', 30], ...line(200), ['msg', 'request completed']],
        [['level', 40], ...line(404), ['msg', 'request completed']],
        [['level', 50], ...line(500), ['msg', 'request errored']],
      ]);
      expect(server.lines.join('')).not.toContain('4111');
      expect(JSON.parse(server.lines[2]!).err.message).toBe('failed with status code 500');
      for (const line of server.lines) expect(JSON.parse(line).time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    } finally {
      await server.close();
    }
  });

  it('writes nothing the level does not let through', async () => {
    const server = await served('warn');
    try {
      await server.ask('/200');
      await server.ask('/404');
      expect(server.fields().map((line) => line.find(([key]) => key === 'res'))).toEqual([['res', { status: 404 }]]);
    } finally {
      await server.close();
    }
  });
});

describe('batchedLogStream', () => {
  it('writes a lone line within its flush interval, and a batch as it fills, in order', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'ledger-log-')), 'out.log');
    const stream = batchedLogStream(file);
    const logger = createLedgerLogger('info', stream);
    logger.info('first');
    // Less than a batch: only the interval writes it.
    await eventually('the lone line written', async () => readFileSync(file, 'utf8').includes('"msg":"first"'));
    for (let n = 0; n < 100; n++) logger.info(`line ${n}`);
    await eventually('every line written', async () => readFileSync(file, 'utf8').trim().split('\n').length === 101);
    const messages = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line).msg);
    expect(messages).toEqual(['first', ...Array.from({ length: 100 }, (_, n) => `line ${n}`)]);
  });
});
