import { chainEvents } from '@ledger/event-store';
import { AuditEvent, checkChain } from '../src/hash-chain';
import { money, parseMoney } from '../src/money';
import { WEBHOOK_EVENT_TYPES } from '../src/webhook-event-types';
import { WEBHOOK_EVENT_TYPES as SUBSCRIBABLE } from '@ledger/domain';
import { DISPUTE_REASONS as DOMAIN_DISPUTE_REASONS, DISPUTE_STATUSES as DOMAIN_DISPUTE_STATUSES, DISPUTE_TRANSITIONS as DOMAIN_DISPUTE_TRANSITIONS } from '@ledger/domain';
import { DISPUTE_REASONS, DISPUTE_STATUSES, DISPUTE_TRANSITIONS, isOpenDispute, STAGE_ACTION_TEXT } from '../src/dispute-stages';
import { addressLine, plasticOf } from '../src/plastic';

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

describe('dispute stages', () => {
  it("offers the domain's reasons, statuses and moves between them, with a button text for every stage a case can be moved to", () => {
    expect(DISPUTE_REASONS).toEqual([...DOMAIN_DISPUTE_REASONS]);
    expect(DISPUTE_STATUSES).toEqual([...DOMAIN_DISPUTE_STATUSES]);
    expect(DISPUTE_TRANSITIONS).toEqual(DOMAIN_DISPUTE_TRANSITIONS);
    const reachable = new Set(Object.values(DISPUTE_TRANSITIONS).flat());
    expect([...reachable].filter((status) => !STAGE_ACTION_TEXT[status])).toEqual([]);
    expect(DISPUTE_STATUSES.filter(isOpenDispute)).toEqual(['NEW', 'PENDING_CUSTOMER', 'SUBMITTED', 'REPRESENTMENT', 'PREARBITRATION', 'ARBITRATION']);
  });
});

describe("a card's plastic, read from its events", () => {
  const address = { firstName: 'Ada', lastName: 'Lovelace', address1: '12 Analytical Row', city: 'BOSTON', state: 'MA', postalCode: '02110', country: 'USA' };
  const elsewhere = { ...address, address1: '1 Other Street', address2: 'Flat 2' };

  it('is none for a card that never had one', () => {
    expect(plasticOf([{ type: 'CardCreated', data: { cardToken: 'c' } }, { type: 'CardPaused', data: {} }])).toBeNull();
  });

  it('follows the latest order: shipped once a CardShipped comes after it, ordered again by a reissue', () => {
    const created = { type: 'CardCreated', data: { shipping: { address, method: 'PRIORITY', productId: null } } };
    const shipped = { type: 'CardShipped', data: { shippingMethod: 'PRIORITY', trackingNumber: '1Z9' } };
    expect(plasticOf([created])).toEqual({ address, method: 'PRIORITY', shipped: false, trackingNumber: null });
    expect(plasticOf([created, shipped])).toEqual({ address, method: 'PRIORITY', shipped: true, trackingNumber: '1Z9' });
    const reissued = { type: 'CardReissued', data: { shipping: { address: elsewhere, method: 'EXPRESS', productId: null } } };
    expect(plasticOf([created, shipped, reissued])).toEqual({ address: elsewhere, method: 'EXPRESS', shipped: false, trackingNumber: null });
    // A renewal of a virtual card orders nothing (its shipping is null): the plastic stays as it was.
    expect(plasticOf([created, shipped, { type: 'CardRenewed', data: { shipping: null } }])).toEqual(plasticOf([created, shipped]));
  });

  it('writes an address on one line', () => {
    expect(addressLine(address)).toBe('Ada Lovelace, 12 Analytical Row, BOSTON, MA 02110, USA');
    expect(addressLine(elsewhere)).toBe('Ada Lovelace, 1 Other Street, Flat 2, BOSTON, MA 02110, USA');
  });
});
