import { chainEvents } from '@ledger/event-store';
import { AuditEvent, checkChain } from '../src/hash-chain';
import { money, parseMoney } from '../src/money';
import { WEBHOOK_EVENT_TYPES } from '../src/webhook-event-types';
import { WEBHOOK_EVENT_TYPES as SUBSCRIBABLE } from '@ledger/domain';

/** The dashboard's own logic, in Node: what the browser tests cannot pin down case by case. */

describe('money', () => {
  it("formats integer minor units in the currency's own decimals", () => {
    const en = (cents: number, currency?: string) => money(cents, currency).replace(/\u00a0/g, ' ');
    expect(en(123456, 'USD')).toMatch(/1,234\.56/);
    expect(en(5, 'USD')).toMatch(/0\.05/);
    expect(en(-250, 'EUR')).toMatch(/2\.50/);
    expect(en(500, 'JPY')).toMatch(/500/);
    expect(en(500, 'JPY')).not.toMatch(/5\.00/);
    expect(en(1234, 'KWD')).toMatch(/1\.234/);
    expect(en(100, 'NOT')).toMatch(/1\.00/);
  });

  it('reads typed amounts as cents, and refuses what is not one', () => {
    expect(parseMoney('12.5')).toBe(1250);
    expect(parseMoney('12,05')).toBe(1205);
    expect(parseMoney(' 7 ')).toBe(700);
    for (const bad of ['', '1.234', '-1', 'ten', '1e3']) expect(parseMoney(bad)).toBeNull();
  });
});

describe('checkChain, against chains the event store writes', () => {
  const chained = chainEvents('card-1', null, [
    { type: 'CardCreated', schemaVersion: 1, data: { cardToken: '1', memo: 'é ü 😀', limits: { b: 2, a: [1, { z: null, y: 'x' }] } }, metadata: { eventId: 'e0', occurredAt: '2026-01-01T00:00:00.000Z' } },
    { type: 'CardUpdated', schemaVersion: 1, data: { cardToken: '1', spendLimit: 5000 }, metadata: { eventId: 'e1', occurredAt: '2026-01-01T00:00:01.000Z' } },
    { type: 'CardUpdated', schemaVersion: 2, data: { cardToken: '1', state: 'PAUSED' }, metadata: { eventId: 'e2', occurredAt: '2026-01-01T00:00:02.000Z' } },
  ] as never);
  const asServed = (): AuditEvent[] =>
    JSON.parse(
      JSON.stringify(
        chained.map((event: any, version: number) => ({ stream_id: 'card-1', stream_version: version, position: `${version}/${version}`, event_id: event.metadata.eventId, type: event.type, schema_version: event.schemaVersion, data: event.data, metadata: event.metadata })),
      ),
    );

  it('verifies every event the store chained', async () => {
    expect((await checkChain(asServed())).map((status) => status.kind)).toEqual(['verified', 'verified', 'verified']);
  });

  it('calls an altered, removed or re-linked event broken, and everything after it', async () => {
    const altered = asServed();
    altered[1].data.spendLimit = 5001;
    expect((await checkChain(altered)).map((status) => status.kind)).toEqual(['verified', 'broken', 'broken']);
    const removed = asServed();
    removed.splice(1, 1);
    expect((await checkChain(removed)).map((status) => status.kind)).toEqual(['verified', 'broken']);
    const relinked = asServed();
    relinked[2].metadata.previousHash = relinked[0].metadata.hash;
    expect((await checkChain(relinked)).map((status) => status.kind)).toEqual(['verified', 'verified', 'broken']);
  });

  it('checks only the link of an event whose secret fields are redacted', async () => {
    const redacted = asServed();
    redacted[0].data.panEncrypted = { redacted: true, sha256: 'ab' };
    const statuses = await checkChain(redacted);
    expect(statuses.map((status) => status.kind)).toEqual(['linked', 'verified', 'verified']);
    expect(statuses[0]).toEqual({ kind: 'linked', why: expect.stringContaining('panEncrypted') });
  });
});

describe('webhook event types', () => {
  it("offers exactly the types a subscription can name", () => {
    expect([...WEBHOOK_EVENT_TYPES].sort()).toEqual([...SUBSCRIBABLE].sort());
  });
});
