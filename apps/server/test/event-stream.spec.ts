import 'reflect-metadata';
import { LiveEventStreams } from '@ledger/gateway';
import { eventually } from '@ledger/test-support';
import { EventStreamClient } from './event-stream-client';
import { startTestLedger, TestLedger } from './test-ledger';

/**
 * GET /v1/events/stream against the whole service over real HTTP: live events, resumption with
 * Last-Event-ID, the event_types filter, program isolation, heartbeats, and the server side freed
 * when a client leaves or the service shuts down.
 */
let t: TestLedger;
const clients: EventStreamClient[] = [];

async function open(options: { apiKey?: string; lastEventId?: string; query?: string } = {}): Promise<EventStreamClient> {
  const client = await EventStreamClient.open(t.baseUrl, options.apiKey ?? t.apiKey, options);
  clients.push(client);
  return client;
}

async function createCard(apiKey = t.apiKey): Promise<{ token: string; pan: string }> {
  const answer = await t.call('POST', '/v1/cards', { apiKey, body: { type: 'MERCHANT_LOCKED' } });
  expect(answer.status).toBe(200);
  return answer.body;
}

/** A card's life: created, paused, resumed, authorized (which also locks it to the merchant), cleared. */
async function cardLife(apiKey = t.apiKey): Promise<string> {
  const card = await createCard(apiKey);
  expect((await t.call('PATCH', `/v1/cards/${card.token}`, { apiKey, body: { state: 'PAUSED' } })).status).toBe(200);
  expect((await t.call('PATCH', `/v1/cards/${card.token}`, { apiKey, body: { state: 'OPEN' } })).status).toBe(200);
  const authorized = await t.call('POST', '/v1/simulate/authorize', { apiKey, body: { pan: card.pan, amount: 500, descriptor: 'Stream Shop' } });
  expect(authorized.status).toBe(200);
  expect((await t.call('POST', '/v1/simulate/clearing', { apiKey, body: { token: authorized.body.token, amount: 500 } })).status).toBe(200);
  return card.token;
}

/** The events a card's life makes: card.created, 2 card.updated, the lock's card.updated, 2 card_transaction.updated. */
const EVENTS_PER_LIFE = 6;

beforeAll(async () => {
  t = await startTestLedger({ EVENT_STREAM_HEARTBEAT_MS: '300' });
});

afterEach(() => {
  for (const client of clients.splice(0)) client.close();
});

afterAll(async () => {
  await t?.stop();
});

describe('GET /v1/events/stream', () => {
  it('sends each event as it happens: id the event token, event its type, data the Event object', async () => {
    const stream = await open();
    expect(stream.status).toBe(200);
    expect(stream.contentType).toBe('text/event-stream; charset=utf-8');
    const cardToken = await cardLife();
    const events = await stream.waitForEvents(EVENTS_PER_LIFE);
    for (const event of events) {
      const data = JSON.parse(event.data);
      expect(Object.keys(data)).toEqual(['token', 'event_type', 'created', 'payload']);
      expect(data.token).toBe(event.id);
      expect(data.event_type).toBe(event.event);
      expect(new Date(data.created).toISOString()).toBe(data.created);
      expect(data.payload.event_type).toBe(event.event);
      if (event.event === 'card_transaction.updated') expect(data.payload.card.token).toBe(cardToken);
      else expect(data.payload.card_token).toBe(cardToken);
    }
    const types = events.map((event) => event.event);
    expect(types[0]).toBe('card.created');
    expect(types.filter((type) => type === 'card.updated')).toHaveLength(3);
    expect(types.filter((type) => type === 'card_transaction.updated')).toHaveLength(2);
    expect(new Set(events.map((event) => event.id)).size).toBe(events.length);
  });

  it('starts with the next event when no Last-Event-ID is given', async () => {
    await cardLife();
    const stream = await open();
    const card = await createCard();
    const [first] = await stream.waitForEvents(1);
    expect(JSON.parse(first.data).payload.card_token).toBe(card.token);
  });

  it('resumes after Last-Event-ID with every later event, none twice and none missing, then live ones', async () => {
    const witness = await open();
    const reader = await open();
    await cardLife();
    const seenBefore = await reader.waitForEvents(EVENTS_PER_LIFE);
    reader.close();
    // The reader is away for a whole card life and part of another.
    await cardLife();
    await createCard();
    const resumeAfter = seenBefore[2].id!;
    const resumed = await open({ lastEventId: resumeAfter });
    await cardLife();
    const all = await witness.waitForEvents(3 * EVENTS_PER_LIFE + 1);
    const expectedAfter = all.slice(3).map((event) => event.id);
    const got = await resumed.waitForEvents(expectedAfter.length);
    expect(got.map((event) => event.id)).toEqual(expectedAfter);
    // And exactly what the witness got, byte for byte.
    expect(got.map((event) => event.data)).toEqual(all.slice(3).map((event) => event.data));
  });

  it('filters by event_types, and resumes through events the filter leaves out', async () => {
    const all = await open();
    const created = await open({ query: 'event_types=card.created' });
    const transactions = await open({ query: 'event_types=card_transaction.updated,card.created' });
    await cardLife();
    await cardLife();
    const everything = await all.waitForEvents(2 * EVENTS_PER_LIFE);
    await created.waitForEvents(2);
    await transactions.waitForEvents(6);
    expect(created.events.map((event) => event.id)).toEqual(everything.filter((event) => event.event === 'card.created').map((event) => event.id));
    expect(transactions.events.map((event) => event.id)).toEqual(everything.filter((event) => event.event !== 'card.updated').map((event) => event.id));
    // Resuming a filtered stream after an event of another type still works.
    const fromUpdate = everything.find((event) => event.event === 'card.updated')!;
    const resumed = await open({ lastEventId: fromUpdate.id, query: 'event_types=card.created' });
    const [next] = await resumed.waitForEvents(1);
    expect(next.id).toBe(everything.filter((event) => event.event === 'card.created')[1].id);
  });

  it('refuses an unknown event type, a Last-Event-ID that names no event of the program, and a missing api-key', async () => {
    const badType = await open({ query: 'event_types=card.created,card.deleted' });
    expect(badType.status).toBe(400);
    expect(JSON.parse(badType.body).message).toContain('event_types');
    for (const lastEventId of ['not-a-uuid', '3f7a1c52-9a55-4a61-8a7e-0c6f5b1d2e3f']) {
      const unknown = await open({ lastEventId });
      expect(unknown.status).toBe(400);
      expect(JSON.parse(unknown.body).message).toContain('Last-Event-ID');
    }
    const anonymous = await fetch(`${t.baseUrl}/v1/events/stream`);
    expect(anonymous.status).toBe(401);
    await anonymous.text();
  });

  it("shows a program only its own events, and refuses another program's event as Last-Event-ID", async () => {
    const other = await t.createProgram('stream isolation');
    const mine = await open();
    const theirs = await open({ apiKey: other.apiKey });
    await cardLife();
    const otherCard = await createCard(other.apiKey);
    const theirEvents = await theirs.waitForEvents(1);
    const myEvents = await mine.waitForEvents(EVENTS_PER_LIFE);
    expect(theirEvents).toHaveLength(1);
    expect(JSON.parse(theirEvents[0].data).payload.card_token).toBe(otherCard.token);
    // The later card of the other program never reaches this program's stream.
    await createCard();
    await mine.waitForEvents(EVENTS_PER_LIFE + 1);
    expect(mine.events.map((event) => event.id)).not.toContain(theirEvents[0].id);
    expect(theirs.events).toHaveLength(1);
    const crossed = await open({ apiKey: other.apiKey, lastEventId: myEvents[0].id });
    expect(crossed.status).toBe(400);
  });

  it('sends heartbeat comments while nothing happens', async () => {
    const stream = await open();
    await eventually('two heartbeats', async () => stream.comments.filter((comment) => comment === 'heartbeat').length >= 2);
    expect(stream.comments[0]).toBe('stream open');
  });

  it('frees the server side when the client disconnects', async () => {
    const streams = t.ledger.app.get(LiveEventStreams);
    await eventually('no stream open', async () => streams.count === 0);
    const first = await open();
    const second = await open();
    await eventually('two streams open', async () => streams.count === 2);
    first.close();
    await eventually('one stream left', async () => streams.count === 1);
    second.close();
    await eventually('no stream open', async () => streams.count === 0);
    // With no stream left the feed's LISTEN connection closes too.
    await eventually('the feed listener closed', async () => !streams.listening);
  });

  it('serves the same events at GET /v1/events/{token} and in GET /v1/events, newest first, with filters and both paging styles', async () => {
    const other = await t.createProgram('feed isolation');
    const stream = await open();
    const begin = new Date().toISOString();
    await cardLife();
    await cardLife();
    const streamed = await stream.waitForEvents(2 * EVENTS_PER_LIFE);
    for (const event of streamed) {
      const answer = await t.call('GET', `/v1/events/${event.id}`);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(JSON.parse(event.data));
      expect((await t.call('GET', `/v1/events/${event.id}`, { apiKey: other.apiKey })).status).toBe(404);
    }
    // Newest first: the stream's order reversed (ties in created broken by token, so compare as sets per page walk).
    const listed = (await t.call('GET', `/v1/events?begin=${encodeURIComponent(begin)}&page_size=100`)).body;
    expect(listed).toMatchObject({ has_more: false, page: 1, total_entries: streamed.length });
    expect(listed.data.map((event: any) => event.token).sort()).toEqual(streamed.map((event) => event.id).sort());
    const created = listed.data.map((event: any) => event.created);
    expect([...created].sort().reverse()).toEqual(created);
    // Cursor pages walk the same list without gaps or repeats, both ways.
    const walked: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = (await t.call('GET', `/v1/events?begin=${encodeURIComponent(begin)}&page_size=5${cursor ? `&starting_after=${cursor}` : ''}`)).body;
      walked.push(...page.data.map((event: any) => event.token));
      if (!page.has_more) break;
      cursor = page.data.at(-1).token;
    }
    expect(walked).toEqual(listed.data.map((event: any) => event.token));
    const before = (await t.call('GET', `/v1/events?begin=${encodeURIComponent(begin)}&page_size=3&ending_before=${walked[5]}`)).body;
    expect(before).toEqual({ data: listed.data.slice(2, 5), has_more: true });
    // event_types and end.
    const transactions = (await t.call('GET', `/v1/events?begin=${encodeURIComponent(begin)}&event_types=card_transaction.updated&page_size=100`)).body;
    expect(transactions.data.map((event: any) => event.token).sort()).toEqual(streamed.filter((event) => event.event === 'card_transaction.updated').map((event) => event.id).sort());
    expect((await t.call('GET', `/v1/events?end=${encodeURIComponent(begin)}&begin=${encodeURIComponent(begin)}`)).body).toMatchObject({ data: [], total_entries: 0 });
    // Another program lists none of them, and a cursor from this program is not in its list.
    expect((await t.call('GET', `/v1/events?begin=${encodeURIComponent(begin)}`, { apiKey: other.apiKey })).body).toMatchObject({ data: [], total_entries: 0 });
    expect((await t.call('GET', `/v1/events?starting_after=${walked[0]}`, { apiKey: other.apiKey })).status).toBe(400);
  });

  // Last: it stops the service. An open stream would otherwise hold the drain for SHUTDOWN_TIMEOUT_MS
  // (30 s), past this test's timeout.
  it('ends open streams at shutdown so the drain does not wait for them', async () => {
    const stream = await open();
    expect(stream.status).toBe(200);
    await t.ledger.stop();
    await eventually('the stream ended', async () => stream.closedByServer);
  });
});
