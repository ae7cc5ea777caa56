import fc from 'fast-check';
import { problemsOf, LogEnd } from './fuzz/answer-checks';
import { HTTP_METHODS, Operation, operationsOf } from './fuzz/openapi-operations';
import { programUnderTest } from './fuzz/program-under-test';
import { caseOf, describeCase, FuzzCase, ProgramUnderTest, targetsOf } from './fuzz/request-cases';
import { registeredRoutes } from './registered-routes';
import { startTestLedger, TestLedger } from './test-ledger';

/**
 * Property test generated from the OpenAPI document the app serves (`GET /openapi.json`): every
 * operation, its path and query parameters and its body schema come from the document, so a new
 * route is fuzzed without editing this file. Each request is a valid one (real tokens of a program
 * made through the API) with one thing broken: a body field (wrong kind, out of range, too long,
 * not in the enum, nested, null, missing), an unknown field at any level, a query parameter
 * (invalid, duplicated, nested, unknown), a path token, the body as a whole, its content-type, the
 * method, the api-key. Whatever arrives: never a 5xx; every error is `{debugging_request_id, message}`;
 * a refusal of a broken field names it; a refused call writes no event.
 *
 * Each target (what can be broken) is sent once as an example, then FUZZ_RUNS (default 20) random
 * cases per operation. FUZZ_SEED reproduces a run: a failure prints the seed and the counterexample.
 * An operation stops at its first counterexample; FUZZ_COLLECT=1 runs every case instead and lists
 * each distinct kind of failure once (operation, target kind, problem) with its first counterexample.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 20);
const SEED = process.env.FUZZ_SEED === undefined ? (Date.now() ^ (Math.random() * 0x100000000)) | 0 : Number(process.env.FUZZ_SEED);
const COLLECT = process.env.FUZZ_COLLECT === '1';

let t: TestLedger;
let operations: Operation[];
/** The methods of each documented path, for the wrong-method targets. */
const methodsOfPath = new Map<string, string[]>();
const programs = new Map<string, ProgramUnderTest>();
/** Operation key to the targets actually sent. */
const exercised = new Map<string, Set<string>>();
const failedOperations = new Set<string>();
/** FUZZ_COLLECT: the first counterexample of each kind of failure. */
const collected = new Map<string, string>();

beforeAll(async () => {
  t = await startTestLedger({ RATE_LIMIT_PER_SECOND: '0', RATE_LIMIT_PER_MINUTE: '0', WEBHOOK_RETRY_SCHEDULE: '0', WEBHOOK_POLL_MS: '100' });
  const answer = await t.call('GET', '/openapi.json', { apiKey: null });
  expect(answer.status).toBe(200);
  operations = operationsOf(answer.body);
  for (const [path, item] of Object.entries<Record<string, unknown>>(answer.body.paths)) {
    methodsOfPath.set(path, HTTP_METHODS.filter((method) => item[method]).map((method) => method.toUpperCase()));
  }
  // A program per operation, made a few at a time.
  const queue = [...operations];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let operation = queue.shift(); operation; operation = queue.shift()) programs.set(operation.key, await programUnderTest(t, `fuzz ${operation.key}`));
    }),
  );
}, 120_000);

afterAll(async () => {
  await t?.stop();
});

/** The end of the log; given the end before a call, also who appended each event since. */
async function logEnd(since?: LogEnd): Promise<LogEnd> {
  const { rows } = await t.pool.query<{ count: number; last: string }>('select count(*)::int as count, coalesce(max(global_position), 0)::text as last from events');
  const end = { count: rows[0].count, lastPosition: rows[0].last };
  if (!since) return end;
  const appended = await t.pool.query<{ by: string | null }>(
    `select metadata->>'correlationId' as by from events where global_position > $1::bigint`,
    [since.lastPosition],
  );
  return { ...end, appendedBy: appended.rows.map((row) => row.by) };
}

async function send(operation: Operation, fuzzCase: FuzzCase): Promise<void> {
  exercised.get(operation.key)!.add(fuzzCase.target);
  const { request } = fuzzCase;
  const before = await logEnd();
  const answer = await t.call(request.method, request.url, { rawBody: request.rawBody, headers: { ...request.headers }, apiKey: request.apiKey });
  const problems = problemsOf(fuzzCase, answer, before, await logEnd(before));
  if (problems.length === 0) return;
  const shown = typeof answer.body === 'string' ? answer.body.slice(0, 300) : answer.body;
  const report = `${problems.join('; ')}\n  answer: ${answer.status} ${JSON.stringify(shown)}`;
  if (!COLLECT) throw new Error(report);
  const kind = `${operation.key} | ${fuzzCase.target.replace(/:.*/, '')} | ${problems.map((problem) => problem.replace(/\d+/g, 'N').replace(/"[^"]*"/g, '…')).join('; ')}`;
  if (!collected.has(kind)) collected.set(kind, `${kind}\n  case: ${describeCase(fuzzCase)}\n  ${report}`);
}

it('every operation of /openapi.json: no 5xx, the JSON error body, the broken field named, nothing written when refused', async () => {
  const failures: string[] = [];
  for (const operation of operations) {
    exercised.set(operation.key, new Set());
    const program = programs.get(operation.key)!;
    const targets = targetsOf(operation, methodsOfPath.get(operation.path) ?? []);
    const examples = targets.map((target, index): [FuzzCase] => [fc.sample(caseOf(operation, target, program), { numRuns: 1, seed: SEED + index })[0]]);
    // Half the random cases are valid requests: they are the ones that reach the handlers' logic.
    const anyCase = fc.oneof(caseOf(operation, 'valid', program), fc.constantFrom(...targets).chain((target) => caseOf(operation, target, program)));
    try {
      await fc.assert(
        fc.asyncProperty(anyCase, (fuzzCase) => send(operation, fuzzCase)),
        { numRuns: examples.length + RUNS, seed: SEED, examples, endOnFailure: true, includeErrorInReport: true },
      );
    } catch (error) {
      failedOperations.add(operation.key);
      failures.push(`${operation.key}: ${(error as Error).message}`);
    }
  }
  if (collected.size) throw new Error(`${collected.size} kinds of failure (FUZZ_SEED=${SEED})\n\n${[...collected.values()].join('\n\n')}`);
  if (failures.length) throw new Error(`${failures.length} of ${operations.length} operations failed (FUZZ_SEED=${SEED})\n\n${failures.join('\n\n')}`);
}, 600_000);

it('fuzzed every operation the app routes, and sent every target of each', () => {
  expect(operations.length).toBeGreaterThan(30);
  const fuzzed = [...exercised].filter(([, targets]) => targets.size > 0).map(([key]) => key);
  expect(fuzzed.sort()).toEqual(registeredRoutes(t.ledger.app));
  for (const operation of operations) {
    // An operation that failed stopped at its first counterexample; the test above reports it.
    if (failedOperations.has(operation.key)) continue;
    const sent = exercised.get(operation.key)!;
    const missing = targetsOf(operation, methodsOfPath.get(operation.path) ?? []).filter((target) => !sent.has(target));
    expect({ operation: operation.key, missing }).toEqual({ operation: operation.key, missing: [] });
  }
});
