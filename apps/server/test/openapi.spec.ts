import { randomUUID } from 'node:crypto';
import { get } from 'node:http';
import { TRANSACTION_RESULTS } from '@ledger/domain';
import { registeredRoutes } from './registered-routes';
import { startTestLedger, TestLedger } from './test-ledger';

/**
 * The OpenAPI document against the running app: every route the HTTP stack will dispatch is documented,
 * and every documented operation reaches a handler (anything but the "Cannot GET /x" route miss).
 */

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];
const ROUTE_MISS = /^Cannot [A-Z]+ \//;

let t: TestLedger;
let doc: any;
beforeAll(async () => {
  t = await startTestLedger();
  const answer = await fetch(`${t.baseUrl}/openapi.json`);
  expect(answer.status).toBe(200);
  doc = await answer.json();
});
afterAll(async () => {
  await t?.stop();
});

function documentedOperations(): { key: string; path: string; method: string; operation: any }[] {
  return Object.entries<any>(doc.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({ key: `${method.toUpperCase()} ${path}`, path, method, operation: item[method] })),
  );
}

/** GET /openapi.json with this Host header (fetch does not let a caller set Host). */
function documentAskedOf(host: string): Promise<any> {
  const { hostname, port } = new URL(t.baseUrl);
  return new Promise((resolve, reject) => {
    get({ hostname, port, path: '/openapi.json', headers: { host } }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve(JSON.parse(text)));
    }).on('error', reject);
  });
}

function walk(node: unknown, visit: (value: Record<string, unknown>, key: string) => void, key = ''): void {
  if (Array.isArray(node)) node.forEach((child) => walk(child, visit, key));
  else if (node && typeof node === 'object') {
    visit(node as Record<string, unknown>, key);
    for (const [childKey, child] of Object.entries(node)) walk(child, visit, childKey);
  }
}

describe('GET /openapi.json', () => {
  it('is an OpenAPI 3.1 document with the api-key scheme in the Authorization header', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toEqual(expect.any(String));
    expect(doc.components.securitySchemes['api-key']).toEqual(expect.objectContaining({ type: 'apiKey', in: 'header', name: 'Authorization' }));
  });

  it('documents every route the app registered, and nothing else', () => {
    const registered = registeredRoutes(t.ledger.app);
    const documented = documentedOperations()
      .map((op) => op.key)
      .sort();
    expect(registered.length).toBeGreaterThan(30);
    expect(documented).toEqual(registered);
  });

  it('names the routes the issue lists', () => {
    const documented = documentedOperations().map((op) => op.key);
    for (const key of [
      'GET /health',
      'POST /v1/cards',
      'POST /v1/card',
      'GET /v1/cards',
      'GET /v1/cards/{card_token}',
      'PATCH /v1/cards/{card_token}',
      'GET /v1/cards/{card_token}/events',
      'GET /v1/cards/{card_token}/balance',
      'GET /v1/transactions',
      'GET /v1/transactions/{transaction_token}',
      'GET /v1/transactions/{transaction_token}/events',
      ...['authorize', 'void', 'clearing', 'return', 'authorization_advice', 'settle'].map((name) => `POST /v1/simulate/${name}`),
      'GET /v1/accounts',
      'GET /v1/funding_sources',
      'PUT /v1/auth_stream',
      'POST /v1/event_subscriptions',
    ]) {
      expect(documented).toContain(key);
    }
  });

  it('gives every operation a summary, a response schema, its errors, and the api-key unless it is a /health probe', () => {
    for (const { key, path, method, operation } of documentedOperations()) {
      const context = `${key}: `;
      expect(context + (operation.summary ?? '')).not.toBe(context);
      // JSON, or for the event stream the text/event-stream it produces.
      const content = operation.responses['200']?.content;
      expect({ key, schema: (content?.['application/json'] ?? content?.['text/event-stream'])?.schema }).toEqual({ key, schema: expect.any(Object) });
      if (path === '/health' || path.startsWith('/health/')) {
        // Public, and said so: an explicit empty requirement, not a missing one.
        expect({ key, security: operation.security }).toEqual({ key, security: [] });
        continue;
      }
      expect({ key, security: operation.security }).toEqual({ key, security: [{ 'api-key': [] }] });
      for (const status of ['400', '401']) {
        expect({ key, status, schema: operation.responses[status]?.content?.['application/json']?.schema }).toEqual({
          key,
          status,
          schema: { $ref: '#/components/schemas/ErrorBodyModel' },
        });
      }
      if (path.includes('{')) expect({ key, has404: '404' in operation.responses }).toEqual({ key, has404: true });
      const takesBody = ['post', 'put', 'patch'].includes(method) && !/\/(rotate|resend|recover|replay_missing|expire_authorization|promote|activate|pause|unpause|deactivate)$/.test(path); // these take no body (a token's activate, pause, unpause and deactivate: Lithic's take none; recover and replay_missing: begin/end in the query, as Lithic has them; expire_authorization: the token is in the path; promote: Lithic's takes none)
      if (takesBody) expect({ key, body: operation.requestBody?.content?.['application/json']?.schema?.$ref }).toEqual({ key, body: expect.stringMatching(/^#\/components\/schemas\//) });
    }
    expect(doc.paths['/v1/simulate/authorize'].post.responses['422']).toBeDefined();
    expect(doc.paths['/v1/cards/{card_token}'].patch.responses['409']).toBeDefined();
  });

  it('uses only 3.1 schema forms, unique operationIds, and refs that resolve', () => {
    const ids = documentedOperations().map((op) => op.operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const problems: string[] = [];
    walk(doc, (node, key) => {
      if (key === 'properties') return; // a map of property names, not a schema
      if ('nullable' in node) problems.push(`nullable in ${JSON.stringify(node)}`);
      for (const bound of ['exclusiveMinimum', 'exclusiveMaximum']) if (typeof node[bound] === 'boolean') problems.push(`boolean ${bound}`);
      const ref = node.$ref;
      if (typeof ref === 'string') {
        const name = ref.replace('#/components/schemas/', '');
        if (!ref.startsWith('#/components/schemas/') || !doc.components.schemas[name]) problems.push(`unresolved ${ref}`);
      }
    });
    expect(problems).toEqual([]);
    expect(doc.components.schemas.AccountModel.properties.velocity_limit).toEqual({ anyOf: [{ $ref: '#/components/schemas/AccountVelocityLimitModel' }, { type: 'null' }] });
    expect(doc.components.schemas.WebhookAttemptModel.properties.response_status.type).toEqual(['integer', 'null']);
  });

  it('names the base URL it was fetched from as its server, whatever the Host', async () => {
    expect(doc.servers).toEqual([{ url: t.baseUrl }]);
    const port = new URL(t.baseUrl).port;
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, 'ledger.example:8443']) {
      const served = await documentAskedOf(host);
      expect({ host, servers: served.servers }).toEqual({ host, servers: [{ url: `http://${host}` }] });
    }
  });

  it("lists the 21 results (APPROVED and the decline reasons) on a transaction's result and its events' results", () => {
    expect(TRANSACTION_RESULTS).toHaveLength(21);
    for (const model of ['TransactionModel', 'TransactionEventModel']) {
      expect({ model, result: doc.components.schemas[model].properties.result.enum }).toEqual({ model, result: [...TRANSACTION_RESULTS] });
    }
  });

  it('documents the balance totals as int64 that may exceed 2^53', () => {
    const balance = doc.paths['/v1/cards/{card_token}/balance'].get.responses['200'].content['application/json'].schema;
    expect(balance).toEqual({ $ref: '#/components/schemas/BalanceModel' });
    for (const total of ['pending', 'settled', 'settlement_complete', 'bounced']) {
      expect({ total, ...doc.components.schemas.BalanceModel.properties[total] }).toEqual({ total, type: 'integer', format: 'int64', description: expect.stringContaining('exceed 2^53') });
    }
  });

  it('needs no api-key', async () => {
    const answer = await t.call('GET', '/openapi.json', { apiKey: null });
    expect(answer.status).toBe(200);
    expect(answer.body.openapi).toBe('3.1.0');
  });
});

describe('every documented operation answers', () => {
  it('reaches a handler for each path and method (placeholder tokens may be 404 "not found", never a route miss)', async () => {
    const misses: string[] = [];
    for (const { key, path, method } of documentedOperations()) {
      const url = path.replace(/\{\w+\}/g, () => randomUUID());
      const body = ['post', 'put', 'patch'].includes(method) ? {} : undefined;
      const answer = await t.call(method.toUpperCase(), url, { body });
      const message = typeof answer.body === 'object' ? answer.body?.message : String(answer.body);
      if (answer.status === 404 && ROUTE_MISS.test(message ?? '')) misses.push(`${key} -> ${answer.status} ${message}`);
      if (answer.status >= 500) misses.push(`${key} -> ${answer.status} ${message}`);
    }
    expect(misses).toEqual([]);
  });

  it('tells a route miss apart (the check would catch an undocumented path)', async () => {
    const answer = await t.call('GET', `/v1/nowhere/${randomUUID()}`);
    expect(answer.status).toBe(404);
    expect(answer.body.message).toMatch(ROUTE_MISS);
  });
});

describe('GET /docs', () => {
  it('serves Swagger UI without an api-key', async () => {
    const answer = await fetch(`${t.baseUrl}/docs`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/text\/html/);
    const html = await answer.text();
    expect(html).toMatch(/swagger-ui/i);
    const init = await fetch(`${t.baseUrl}/docs/swagger-ui-init.js`);
    expect(init.status).toBe(200);
    expect(await init.text()).toContain('"openapi": "3.1.0"');
  });
});
