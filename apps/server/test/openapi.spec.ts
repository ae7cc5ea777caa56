import { randomUUID } from 'node:crypto';
import { startTestLedger, TestLedger } from './test-ledger';

/**
 * The OpenAPI document against the running app: every route Express will dispatch is documented,
 * and every documented operation reaches a handler (anything but the "Cannot GET /x" route miss).
 */

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];
/** Routes SwaggerModule itself adds: the document and the UI with its assets. */
const OWN_ROUTES = /^(\/openapi\.json|\/docs(\/.*)?)$/;
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

interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
}

/**
 * What Express will actually dispatch: the route layers of its router (Express 5 `app.router`,
 * Express 4 `app._router`), `:param` written as OpenAPI's `{param}`. This is below Nest, so a
 * route registered any way at all (controller, adapter, another module) is seen.
 */
function registeredRoutes(): string[] {
  const express = t.ledger.app.getHttpAdapter().getInstance();
  const stack: Layer[] = (express.router ?? express._router).stack;
  const routes = new Set<string>();
  for (const layer of stack) {
    if (!layer.route) continue;
    const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
    for (const path of paths) {
      if (OWN_ROUTES.test(path)) continue;
      for (const [method, on] of Object.entries(layer.route.methods)) {
        if (on && method !== '_all') routes.add(`${method.toUpperCase()} ${path.replace(/:(\w+)/g, '{$1}')}`);
      }
    }
  }
  return [...routes].sort();
}

function documentedOperations(): { key: string; path: string; method: string; operation: any }[] {
  return Object.entries<any>(doc.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({ key: `${method.toUpperCase()} ${path}`, path, method, operation: item[method] })),
  );
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
    const registered = registeredRoutes();
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
      expect({ key, schema: operation.responses['200']?.content?.['application/json']?.schema }).toEqual({ key, schema: expect.any(Object) });
      if (path === '/health' || path.startsWith('/health/')) {
        expect(operation.security ?? []).toEqual([]);
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
      const takesBody = ['post', 'put', 'patch'].includes(method) && !/\/(rotate|resend)$/.test(path);
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
