import Lithic from 'lithic';
import { LocalReceiver } from '@ledger/test-support';
import { ledgerForTests } from './test-ledger';

/**
 * The official `lithic` SDK enrolling the authorization stream as Lithic does, as a responder
 * endpoint, and an authorization asking it (docs/decisions.md, "Responder endpoints").
 */

const t = ledgerForTests();

/** A program of its own for each test: an enrolled stream is asked about every authorization of its program. */
async function programClient(name: string): Promise<{ client: Lithic; programToken: string; apiKey: string }> {
  const { apiKey, programToken } = await t.createProgram(name);
  return { client: new Lithic({ apiKey, baseURL: t.baseUrl, maxRetries: 0 }), programToken, apiKey };
}

describe('responderEndpoints: AUTH_STREAM_ACCESS is the authorization stream', () => {
  const endpoint = new LocalReceiver(() => ({ status: 200, body: { result: 'APPROVED' } }));
  let endpointUrl: string;
  beforeAll(async () => {
    endpointUrl = (await endpoint.start()).url('/asa');
  });
  afterAll(() => endpoint.stop());

  it('create enrolls the endpoint the next authorization asks; checkStatus says where; delete stops the asking', async () => {
    const { client, apiKey } = await programClient('sdk-responder');
    expect(await client.responderEndpoints.checkStatus({ type: 'AUTH_STREAM_ACCESS' })).toEqual({ enrolled: false, url: null });

    const created: Lithic.ResponderEndpointCreateResponse = await client.responderEndpoints.create({ type: 'AUTH_STREAM_ACCESS', url: endpointUrl });
    expect(created).toEqual({ enrolled: true });
    const status: Lithic.ResponderEndpointStatus = await client.responderEndpoints.checkStatus({ type: 'AUTH_STREAM_ACCESS' });
    expect(status).toEqual({ enrolled: true, url: endpointUrl });
    // One mechanism: the same stream as PUT /v1/auth_stream, with its default timeout and a secret.
    expect((await t.call('GET', '/v1/auth_stream', { apiKey })).body).toEqual({ url: endpointUrl, timeout_ms: 2000, secret: expect.stringMatching(/^whsec_/) });

    const card = await client.cards.create({ type: 'VIRTUAL' });
    endpoint.clear();
    const approved = await client.transactions.simulateAuthorization({ amount: 700, descriptor: 'ASKED SHOP', pan: card.pan! });
    expect(endpoint.requests).toHaveLength(1);
    expect(endpoint.requests[0].body).toMatchObject({ token: approved.token, amount: 700, merchant: { descriptor: 'ASKED SHOP' } });

    await client.responderEndpoints.delete({ type: 'AUTH_STREAM_ACCESS' });
    expect(await client.responderEndpoints.checkStatus({ type: 'AUTH_STREAM_ACCESS' })).toEqual({ enrolled: false, url: null });
    expect((await t.call('GET', '/v1/auth_stream', { apiKey })).status).toBe(404);
    endpoint.clear();
    const unasked = await client.transactions.simulateAuthorization({ amount: 700, descriptor: 'UNASKED SHOP', pan: card.pan! });
    expect((await client.transactions.retrieve(unasked.token!)).result).toBe('APPROVED');
    expect(endpoint.requests).toEqual([]);
    // Deleting again changes nothing and is no error; every write answers JSON, here {} (the SDK types it void).
    await expect(client.responderEndpoints.delete({ type: 'AUTH_STREAM_ACCESS' })).resolves.toEqual({});
  });

  it('create moves an enrolled stream and keeps the timeout and secret PUT /v1/auth_stream gave it', async () => {
    const { client, apiKey } = await programClient('sdk-responder-move');
    const put = await t.call('PUT', '/v1/auth_stream', { apiKey, body: { url: 'http://127.0.0.1:9/old', timeout_ms: 4500 } });
    expect(put.status).toBe(200);
    await client.responderEndpoints.create({ type: 'AUTH_STREAM_ACCESS', url: endpointUrl });
    expect((await t.call('GET', '/v1/auth_stream', { apiKey })).body).toEqual({ url: endpointUrl, timeout_ms: 4500, secret: put.body.secret });
  });

  it('refuses the urls PUT /v1/auth_stream refuses, and enrolls nothing', async () => {
    const { client } = await programClient('sdk-responder-urls');
    for (const url of ['ftp://hooks.example.com/asa', 'https://user:pass@hooks.example.com/asa', 'http://169.254.169.254/asa', 'http://10.0.0.1/asa']) {
      await expect(client.responderEndpoints.create({ type: 'AUTH_STREAM_ACCESS', url })).rejects.toMatchObject({ status: 400, error: { message: expect.stringMatching(/^url /) } });
    }
    await expect(client.responderEndpoints.create({ type: 'AUTH_STREAM_ACCESS' })).rejects.toMatchObject({ status: 400 });
    expect(await client.responderEndpoints.checkStatus({ type: 'AUTH_STREAM_ACCESS' })).toEqual({ enrolled: false, url: null });
  });

  it.each(['THREE_DS_DECISIONING', 'TOKENIZATION_DECISIONING'] as const)('%s: nothing here would ask it, so it cannot be enrolled and is never enrolled', async (type) => {
    const { client } = await programClient(`sdk-responder-${type}`);
    await expect(client.responderEndpoints.create({ type, url: endpointUrl })).rejects.toMatchObject({
      status: 400,
      error: { message: 'type must be AUTH_STREAM_ACCESS: there is no 3-D Secure or tokenization decisioning here to send to an endpoint' },
    });
    expect(await client.responderEndpoints.checkStatus({ type })).toEqual({ enrolled: false, url: null });
    await expect(client.responderEndpoints.delete({ type })).resolves.toEqual({});
    // The authorization stream is not touched by another type's calls.
    await client.responderEndpoints.create({ type: 'AUTH_STREAM_ACCESS', url: endpointUrl });
    await client.responderEndpoints.delete({ type });
    expect(await client.responderEndpoints.checkStatus({ type: 'AUTH_STREAM_ACCESS' })).toEqual({ enrolled: true, url: endpointUrl });
  });

  it('refuses an unknown type', async () => {
    const { client } = await programClient('sdk-responder-unknown');
    await expect(client.responderEndpoints.checkStatus({ type: 'SOMETHING' as 'AUTH_STREAM_ACCESS' })).rejects.toMatchObject({ status: 400 });
  });
});
