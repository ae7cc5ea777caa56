import { createHash } from 'node:crypto';
import { canonicalJson, type EventMetadata } from '@ledger/event-store';
import { committedData, leafContent, leafHash, type LoggedEvent, redacted } from './leaf-hash';

/**
 * The leaf as docs/audit.md defines it, written the plain way: a copy with the secret fields
 * replaced, one object, canonicalJson over it. The faster leafHash must give the same bytes for
 * every event: digests already published depend on it.
 */
function referenceLeafHash(event: LoggedEvent): Buffer {
  const content = canonicalJson({
    stream_id: event.streamId,
    stream_version: event.streamVersion,
    position: event.position,
    event_id: event.metadata.eventId,
    type: event.type,
    schema_version: event.schemaVersion,
    data: committedData(event.data),
    metadata: event.metadata,
  });
  return createHash('sha256').update(Buffer.from([0])).update(content, 'utf8').digest();
}

const metadata = {
  eventId: '47f93150-bccf-4750-b5d1-cf4603bba6e4',
  hash: '805c1097ca56a33ccc495ce4d2b76a420acb72d147df3d5caca644b90b91ac9b',
  previousHash: '15eff4618085c654efa1f7994223bb5aa5c5ad955b570bc1bf5f56bc0acf4f09',
  programToken: '5a4db0c0-0000-4000-8000-000000000001',
  correlationId: 'cb5b1b59-8ced-4293-ab42-52de4ba53f67',
  causationId: null,
  occurredAt: '2026-11-24T03:27:16.106Z',
} as unknown as EventMetadata;

function event(data: unknown, overrides: Partial<LoggedEvent> = {}): LoggedEvent {
  return { streamId: 'card-98a5', streamVersion: 3, position: '784/18', type: 'CardAuthorizationApproved', schemaVersion: 1, data, metadata, ...overrides };
}

describe('leafHash', () => {
  it.each([
    ['an authorization', event({ amount: 1234, merchant: { mcc: '5999', descriptor: 'Café 東京 🎉', city: '' }, cardToken: 'd83b', at: '2026-11-24T03:27:16.106Z' })],
    ['a stored secret field', event({ cardToken: 'c1', panEncrypted: 'v1:abc:def', panHash: 'h', last4: '4242' }, { type: 'CardCreated' })],
    ['secrets at depth and inside arrays', event({ keys: [{ keyHash: 'k1', name: 'a' }, { keyHash: null }], nested: { pin: '1234', deeper: { cvv: '999' } } })],
    ['an already redacted secret (the audit API view)', event({ panEncrypted: redacted('v1:abc:def'), panHash: null })],
    ['a redacted marker that carries a secret name inside', event({ panEncrypted: { redacted: true, sha256: 'ab', pan: '4111' } })],
    ['undefined members', event({ keep: 1, drop: undefined, list: [1, undefined], secretSealed: undefined })],
    ['data that is not an object', event([3, 'x', null, true])],
    ['data left out', event(undefined)],
  ])('gives the same leaf as the definition written the plain way: %s', (_, logged) => {
    expect(leafHash(logged).toString('hex')).toBe(referenceLeafHash(logged).toString('hex'));
    expect(leafContent(logged).toString('utf8')).toBe(
      canonicalJson({ stream_id: logged.streamId, stream_version: logged.streamVersion, position: logged.position, event_id: logged.metadata.eventId, type: logged.type, schema_version: logged.schemaVersion, data: committedData(logged.data), metadata: logged.metadata }),
    );
  });

  it('commits to a secret by the hash of its stored value, never the value', () => {
    const content = leafContent(event({ panEncrypted: 'v1:secret-ciphertext' })).toString('utf8');
    expect(content).not.toContain('secret-ciphertext');
    expect(content).toContain(redacted('v1:secret-ciphertext').sha256);
  });

  it('changes with any member', () => {
    const base = event({ amount: 300 });
    const variants = [event({ amount: 1 }), event({ amount: 300 }, { position: '784/19' }), event({ amount: 300 }, { streamVersion: 4 }), event({ amount: 300 }, { metadata: { ...metadata, eventId: 'other' } as EventMetadata })];
    for (const variant of variants) expect(leafHash(variant).equals(leafHash(base))).toBe(false);
  });
});
