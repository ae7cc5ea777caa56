import { Logger } from '@nestjs/common';
import { createLedgerLogger, PinoNestLogger } from './logging';

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
