import { eventually } from './eventually';
import { closedPort, deadUrl, LocalReceiver, ReceiverAnswer } from './local-receiver';

/** The receiver every HTTP integration spec leans on, over real connections. */
const receivers: LocalReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.map((receiver) => receiver.stop()));
  receivers.length = 0;
});
const started = async (...args: ConstructorParameters<typeof LocalReceiver>) => {
  const receiver = await new LocalReceiver(...args).start();
  receivers.push(receiver);
  return receiver;
};

it('records method, path with query, headers, the raw text and the body parsed as JSON; answers 200 {} by default', async () => {
  const receiver = await started();
  const answer = await fetch(receiver.url('/hooks?x=1'), { method: 'POST', headers: { 'content-type': 'application/json', 'x-test': 'yes' }, body: '{"memo":"café"}' });
  expect([answer.status, answer.headers.get('content-type'), await answer.text()]).toEqual([200, 'application/json', '{}']);
  await fetch(`${receiver.baseUrl}/plain`, { method: 'PUT', body: 'not json' });
  expect(receiver.requests).toEqual([
    { method: 'POST', path: '/hooks?x=1', headers: expect.objectContaining({ 'x-test': 'yes', host: `127.0.0.1:${receiver.port}` }), raw: '{"memo":"café"}', body: { memo: 'café' } },
    { method: 'PUT', path: '/plain', headers: expect.any(Object), raw: 'not json', body: null },
  ]);
  expect(receiver.requestsTo('/plain').map((request) => request.method)).toEqual(['PUT']);
  receiver.clear();
  expect(receiver.requests).toEqual([]);
});

it.each<[string, ReceiverAnswer, number, string | null, string, string | null]>([
  ['an object as JSON', { status: 201, body: { ok: true } }, 201, 'application/json', '{"ok":true}', null],
  ['a string as it is', { status: 200, body: 'late' }, 200, null, 'late', null],
  ['no body as an empty one', { status: 418 }, 418, null, '', null],
  ['its headers', { status: 302, headers: { location: '/ok' } }, 302, null, '', '/ok'],
])('answers as the rule says: %s', async (_what, rule, status, contentType, text, location) => {
  const receiver = await started(() => rule);
  const answer = await fetch(receiver.url('/x'), { method: 'POST', body: '{}', redirect: 'manual' });
  expect([answer.status, answer.headers.get('content-type'), await answer.text(), answer.headers.get('location')]).toEqual([status, contentType, text, location]);
});

it('answers late by delayMs, and the rule sees the request (here: per path)', async () => {
  const receiver = await started((request) => (request.path === '/slow' ? { status: 200, delayMs: 400 } : { status: 204 }));
  const begun = Date.now();
  expect((await fetch(receiver.url('/slow'), { method: 'POST' })).status).toBe(200);
  expect(Date.now() - begun).toBeGreaterThanOrEqual(350);
  expect((await fetch(receiver.url('/fast'), { method: 'POST' })).status).toBe(204);
});

it('a rule answering null hangs the request until stop(), which ends it and closes the port', async () => {
  const receiver = await started(() => null);
  const port = receiver.port;
  const hanging = fetch(receiver.url('/hang'), { method: 'POST' }).then(
    () => 'answered',
    () => 'dropped',
  );
  await eventually('the hanging request', async () => receiver.requests.length > 0);
  await receiver.stop();
  expect(await hanging).toBe('dropped');
  await expect(fetch(`http://127.0.0.1:${port}/again`)).rejects.toThrow();
});

it('closedPort() and deadUrl() lead where nothing listens', async () => {
  for (const url of [`http://127.0.0.1:${await closedPort()}/x`, await deadUrl(), await deadUrl('/gone')]) {
    await expect(fetch(url, { method: 'POST' })).rejects.toMatchObject({ cause: { code: 'ECONNREFUSED' } });
  }
  expect(await deadUrl('/gone')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/gone$/);
});

it('says so when its port is asked before start()', () => {
  expect(() => new LocalReceiver().port).toThrow('not started');
});
