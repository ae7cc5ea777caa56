import Lithic from 'lithic';
import { Webhook } from 'standardwebhooks';
import type { Card } from 'lithic/resources/cards/cards';
import type { CardProgram } from 'lithic/resources/card-programs';
import type { ShippingAddress } from 'lithic/resources/shared';
import type { CardConvertedWebhookEvent, CardReissuedWebhookEvent, CardRenewedWebhookEvent, CardShippedWebhookEvent, CardUpdatedWebhookEvent, ParsedWebhookEvent } from 'lithic/resources/webhooks';
import { eventually, LocalReceiver, ReceivedRequest } from '@ledger/test-support';
import { runAdminCommand } from '@ledger/admin';
import { startTestLedger, TestLedger } from './test-ledger';

/**
 * Card programs and physical cards through the official `lithic` SDK: cardPrograms.list/retrieve,
 * card_program_token and replacement_for on create, PHYSICAL cards from PENDING_FULFILLMENT through
 * the sandbox's shipment to activation, and renew, reissue and convertPhysical, each checked by what
 * it does to the card and to the authorizations that follow, not only by the answer's shape. This
 * file is type-checked (typecheck.spec.ts).
 */
let t: TestLedger;
let client: Lithic;
const receiver = new LocalReceiver(() => ({ status: 200, body: {} }));

beforeAll(async () => {
  await receiver.start();
  t = await startTestLedger({ WEBHOOK_POLL_MS: '50' });
  client = new Lithic({ apiKey: t.apiKey, baseURL: t.baseUrl, maxRetries: 0 });
});

afterAll(async () => {
  await t?.stop();
  await receiver.stop();
});

function headersOf(delivery: ReceivedRequest): Record<string, string> {
  return Object.fromEntries(Object.entries(delivery.headers).map(([name, value]) => [name, String(value)]));
}

const janet: ShippingAddress = { first_name: 'Janet', last_name: 'Yellen', address1: '5 Broad Street', city: 'NEW YORK', state: 'NY', postal_code: '10001', country: 'USA' };

/** The sandbox's shipment: Lithic has no public call for it (docs/decisions.md). */
async function ship(card: Card): Promise<Card> {
  return client.post(`/v1/simulate/cards/${card.token}/ship`, { body: { tracking_number: '1Z999AA10123456784' } });
}

/** A card-not-present authorization (no PIN), as an online shop sends one; its result. */
async function buyOnline(card: Card, amount: number): Promise<string> {
  const { token } = await client.transactions.simulateAuthorization({ amount, descriptor: 'ONLINE SHOP', pan: card.pan! }).catch((error: { error?: { token?: string } }) => ({ token: error.error?.token }));
  return (await client.transactions.retrieve(token!)).result;
}

/** A card-present authorization: the cardholder types the PIN at the terminal. */
async function buyInStore(card: Card, amount: number, pin: string): Promise<string> {
  const params = { amount, descriptor: 'CORNER STORE', pan: card.pan!, pin };
  const { token } = await client.transactions.simulateAuthorization(params).catch((error: { error?: { token?: string } }) => ({ token: error.error?.token }));
  return (await client.transactions.retrieve(token!)).result;
}

describe('card programs', () => {
  it('lists the program\'s one card program and retrieves it; cards show it, and create accepts it', async () => {
    const programs: CardProgram[] = [];
    for await (const program of client.cardPrograms.list()) programs.push(program);
    expect(programs).toHaveLength(1);
    const [program] = programs;
    const [account] = (await client.accounts.list()).data;
    expect(program).toMatchObject({ token: account.token, pan_range_start: '424242', pan_range_end: '424242', account_level_management_enabled: false, cardholder_currency: 'USD' });
    expect(await client.cardPrograms.retrieve(program.token)).toEqual(program);

    const card = await client.cards.create({ type: 'VIRTUAL', card_program_token: program.token });
    expect(card.card_program_token).toBe(program.token);
    expect(card.pan!.startsWith(program.pan_range_start)).toBe(true);
  });

  it('answers 404 for another card program, and refuses it on create (400 naming the field)', async () => {
    const unknown = '5b2ad2a4-3a3e-4c59-9b1e-0e4a2f6c7d81';
    await expect(client.cardPrograms.retrieve(unknown)).rejects.toMatchObject({ status: 404 });
    await expect(client.cards.create({ type: 'VIRTUAL', card_program_token: unknown })).rejects.toMatchObject({ status: 400, error: { message: expect.stringContaining('card_program_token') } });
  });
});

describe('physical cards', () => {
  it('is ordered PENDING_FULFILLMENT, shipped to PENDING_ACTIVATION, and activated OPEN; only card-not-present purchases pass before', async () => {
    const card = await client.cards.create({ type: 'PHYSICAL', shipping_address: janet, shipping_method: 'EXPRESS', product_id: '100', pin: '1234', spend_limit: 5000 });
    expect(card).toMatchObject({ type: 'PHYSICAL', state: 'PENDING_FULFILLMENT', product_id: '100', spend_limit: 5000 });

    expect(await buyOnline(card, 100)).toBe('APPROVED');
    expect(await buyInStore(card, 100, '1234')).toBe('CARD_PAUSED');

    const shipped = await ship(card);
    expect(shipped.state).toBe('PENDING_ACTIVATION');
    expect(await buyInStore(card, 100, '1234')).toBe('CARD_PAUSED');
    await expect(ship(card)).rejects.toMatchObject({ status: 409 });

    expect((await client.cards.update(card.token, { state: 'OPEN' })).state).toBe('OPEN');
    expect(await buyInStore(card, 100, '1234')).toBe('APPROVED');
  });

  it('refuses to activate a card whose plastic has not shipped (409), and lists the pending states', async () => {
    const card = await client.cards.create({ type: 'PHYSICAL', shipping_address: janet });
    await expect(client.cards.update(card.token, { state: 'OPEN' })).rejects.toMatchObject({ status: 409 });
    const pending: string[] = [];
    for await (const listed of client.cards.list({ state: 'PENDING_FULFILLMENT' })) pending.push(listed.token);
    expect(pending).toContain(card.token);
  });

  it('refuses a PHYSICAL card without an address, an address Lithic would refuse, and an address on a virtual card (400)', async () => {
    await expect(client.cards.create({ type: 'PHYSICAL' })).rejects.toMatchObject({ status: 400, error: { message: expect.stringContaining('shipping_address') } });
    await expect(client.cards.create({ type: 'PHYSICAL', shipping_address: { ...janet, country: 'US' } })).rejects.toMatchObject({ status: 400 });
    await expect(client.cards.create({ type: 'PHYSICAL', shipping_address: { ...janet, postal_code: 'ABCDE' } })).rejects.toMatchObject({ status: 400 });
    await expect(client.cards.create({ type: 'PHYSICAL', shipping_address: janet, shipping_method: 'EXPEDITED' })).rejects.toMatchObject({ status: 400 });
    await expect(client.cards.create({ type: 'VIRTUAL', shipping_address: janet })).rejects.toMatchObject({ status: 400 });
  });
});

describe('renew, reissue and convertPhysical', () => {
  it('renews a PHYSICAL card: same token and PAN, a new expiry and CVV, the same limits, still OPEN and spending', async () => {
    const card = await client.cards.create({ type: 'PHYSICAL', shipping_address: janet, spend_limit: 1000, spend_limit_duration: 'FOREVER', exp_month: '01', exp_year: '2030' });
    await ship(card);
    await client.cards.update(card.token, { state: 'OPEN' });
    expect(await buyOnline(card, 600)).toBe('APPROVED');

    const renewed = await client.cards.renew(card.token, { shipping_address: janet, exp_month: '06', exp_year: '2032' });
    expect(renewed).toMatchObject({ token: card.token, pan: card.pan, last_four: card.last_four, exp_month: '06', exp_year: '2032', state: 'OPEN', spend_limit: 1000, spend_limit_duration: 'FOREVER' });
    expect(renewed.cvv).not.toBe(card.cvv);
    // The FOREVER limit remembers the 600 spent before the renewal.
    expect(await buyOnline(renewed, 500)).toBe('USER_TRANSACTION_LIMIT');
    expect(await buyOnline(renewed, 400)).toBe('APPROVED');
    // Its new plastic ships; the card stays OPEN.
    expect((await ship(renewed)).state).toBe('OPEN');
  });

  it('renews a VIRTUAL card with a generated expiry, and refuses a SINGLE_USE card (409: its type allows none)', async () => {
    const card = await client.cards.create({ type: 'VIRTUAL', exp_month: '01', exp_year: '2030' });
    const renewed = await client.cards.renew(card.token, { shipping_address: janet });
    expect(renewed).toMatchObject({ token: card.token, pan: card.pan, type: 'VIRTUAL', state: 'OPEN' });
    expect(`${renewed.exp_year}${renewed.exp_month}`).not.toBe('203001');
    const singleUse = await client.cards.create({ type: 'SINGLE_USE' });
    await expect(client.cards.renew(singleUse.token, { shipping_address: janet })).rejects.toMatchObject({ status: 409 });
  });

  it('reissues a PHYSICAL card: same PAN, expiry and CVV, limits and state kept; a virtual card is refused', async () => {
    const card = await client.cards.create({ type: 'PHYSICAL', shipping_address: janet, spend_limit: 700 });
    await ship(card);
    await client.cards.update(card.token, { state: 'OPEN' });
    const reissued = await client.cards.reissue(card.token, { shipping_method: 'PRIORITY', shipping_address: { ...janet, address1: '1 Main Street' }, product_id: '200' });
    expect(reissued).toMatchObject({ token: card.token, pan: card.pan, cvv: card.cvv, exp_month: card.exp_month, exp_year: card.exp_year, state: 'OPEN', spend_limit: 700, product_id: '200' });
    expect(await buyOnline(reissued, 800)).toBe('USER_TRANSACTION_LIMIT');
    expect(await buyOnline(reissued, 700)).toBe('APPROVED');
    // Without an address, to the last one.
    expect((await client.cards.reissue(card.token, {})).product_id).toBe('200');
    const virtual = await client.cards.create({ type: 'VIRTUAL' });
    await expect(client.cards.reissue(virtual.token, { shipping_address: janet })).rejects.toMatchObject({ status: 409 });
  });

  it('converts an OPEN VIRTUAL card to PHYSICAL: same token, PAN and limits, PENDING_FULFILLMENT, online purchases still approved', async () => {
    const card = await client.cards.create({ type: 'VIRTUAL', spend_limit: 2000, spend_limit_duration: 'MONTHLY', pin: '4321' });
    const converted = await client.cards.convertPhysical(card.token, { shipping_address: janet, shipping_method: 'STANDARD', product_id: '100' });
    expect(converted).toMatchObject({ token: card.token, pan: card.pan, type: 'PHYSICAL', state: 'PENDING_FULFILLMENT', spend_limit: 2000, spend_limit_duration: 'MONTHLY', product_id: '100' });
    expect(await buyOnline(converted, 1500)).toBe('APPROVED');
    expect(await buyInStore(converted, 100, '4321')).toBe('CARD_PAUSED');
    expect(await buyOnline(converted, 600)).toBe('USER_TRANSACTION_LIMIT');
    // Converted once, it is PHYSICAL: not converted again.
    await expect(client.cards.convertPhysical(card.token, { shipping_address: janet })).rejects.toMatchObject({ status: 409 });
    const paused = await client.cards.create({ type: 'VIRTUAL', state: 'PAUSED' });
    await expect(client.cards.convertPhysical(paused.token, { shipping_address: janet })).rejects.toMatchObject({ status: 409 });
  });

  it('creates a replacement: a new card and number for a lost one, with its limits and type; replacement_for shown', async () => {
    const lost = await client.cards.create({ type: 'PHYSICAL', shipping_address: janet, spend_limit: 3000, spend_limit_duration: 'ANNUALLY' });
    const replacement = await client.cards.create({ type: 'PHYSICAL', shipping_address: janet, replacement_for: lost.token });
    expect(replacement).toMatchObject({ replacement_for: lost.token, spend_limit: 3000, spend_limit_duration: 'ANNUALLY', state: 'PENDING_FULFILLMENT' });
    expect(replacement.pan).not.toBe(lost.pan);
    // Lithic: a PHYSICAL card is replaced by a PHYSICAL card; and only the program's own cards.
    await expect(client.cards.create({ type: 'VIRTUAL', replacement_for: lost.token })).rejects.toMatchObject({ status: 400 });
    await expect(client.cards.create({ type: 'VIRTUAL', replacement_for: '00000000-0000-4000-8000-000000000000' })).rejects.toMatchObject({ status: 400 });
  });
});

describe('the plastic\'s webhooks', () => {
  it('sends card.shipped, card.updated on activation, card.renewed, card.reissued and card.converted, signed and in Lithic\'s types', async () => {
    const subscription = await client.events.subscriptions.create({ url: receiver.url('/plastic'), event_types: ['card.shipped', 'card.renewed', 'card.reissued', 'card.converted', 'card.updated'] });
    const secret = (await client.events.subscriptions.retrieveSecret(subscription.token)).secret!;
    const physical = await client.cards.create({ type: 'PHYSICAL', shipping_address: janet, shipping_method: 'PRIORITY', exp_month: '02', exp_year: '2031' });
    await ship(physical);
    await client.cards.update(physical.token, { state: 'OPEN' });
    await client.cards.renew(physical.token, { shipping_address: janet, exp_month: '03', exp_year: '2033' });
    await client.cards.reissue(physical.token, {});
    const virtual = await client.cards.create({ type: 'VIRTUAL' });
    await client.cards.convertPhysical(virtual.token, { shipping_address: janet });

    const deliveries = await eventually('five deliveries', async () => receiver.requestsTo('/plastic').length >= 5 && receiver.requestsTo('/plastic'));
    const bodies: ParsedWebhookEvent[] = deliveries.map((delivery) => {
      new Webhook(secret).verify(delivery.raw, headersOf(delivery));
      return client.webhooks.unwrap(delivery.raw, headersOf(delivery), secret) as ParsedWebhookEvent;
    });
    expect(bodies.map((body) => body.event_type)).toEqual(['card.shipped', 'card.updated', 'card.renewed', 'card.reissued', 'card.converted']);
    const [shipped, activated, renewed, reissued, converted] = bodies as [CardShippedWebhookEvent, CardUpdatedWebhookEvent, CardRenewedWebhookEvent, CardReissuedWebhookEvent, CardConvertedWebhookEvent];
    expect(shipped).toMatchObject({ card_token: physical.token, shipping_method: 'USPS priority', bulk_order_token: null, tracking_number: '1Z999AA10123456784' });
    expect(activated).toMatchObject({ card_token: physical.token, state: 'OPEN', previous_fields: { state: 'PENDING_ACTIVATION' } });
    expect(renewed).toMatchObject({ card_token: physical.token, exp_month: '03', exp_year: '2033', previous_exp_month: '02', previous_exp_year: '2031' });
    expect(reissued.card_token).toBe(physical.token);
    expect(converted.card_token).toBe(virtual.token);
    // The feed serves the same bodies.
    const feed = await client.events.list({ event_types: ['card.renewed'], page_size: 1 });
    expect(feed.data[0].payload).toEqual(JSON.parse(deliveries[2].raw));
  });
});

describe('the ledger after every plastic event', () => {
  it('shows a card as it was at each step (as_of), replays into the live read models, and verifies clean', async () => {
    const card = await client.cards.create({ type: 'VIRTUAL', spend_limit: 900 });
    const states: [string, Card][] = [];
    const step = async (answer: Promise<Card>) => {
      const then = await answer;
      states.push([new Date().toISOString(), then]);
    };
    await step(client.cards.convertPhysical(card.token, { shipping_address: janet }));
    await step(ship(card));
    await step(client.cards.update(card.token, { state: 'OPEN' }));
    await step(client.cards.renew(card.token, { shipping_address: janet, exp_month: '09', exp_year: '2034' }));
    for (const [at, then] of states) {
      const { pan: _pan, cvv: _cvv, ...shown } = then;
      expect((await t.call('GET', `/v1/cards/${card.token}?as_of=${encodeURIComponent(at)}`)).body).toMatchObject(shown);
    }

    const replay = await runAdminCommand(t.ledger.app, ['replay']);
    expect(replay.output).toMatchObject({ identical: true, differenceCount: 0 });
    const verify = await runAdminCommand(t.ledger.app, ['verify']);
    expect(verify.output).toMatchObject({ intact: true, firstBreak: null });
  });
});
