import Lithic from 'lithic';
import { eventually } from '@ledger/test-support';
import { startTestLedger, TestLedger } from './test-ledger';

/**
 * Lithic's cursor lists through the official SDK: `for await` follows `has_more` and asks for the
 * next page with the last item's token as `starting_after` (or, walking back, the first item's as
 * `ending_before`). The lists keep their own order (docs/decisions.md, "Lithic SDK"), and a cursor
 * walks that same order. Also the list filters the SDK sends: begin/end as RFC 3339, card state and
 * memo, transaction status.
 */

const DEAD_URL = 'http://127.0.0.1:9/unreachable';

describe('cursor pagination and list filters through the lithic SDK', () => {
  let t: TestLedger;
  let client: Lithic;
  /** In creation order, which is every list's order here but the delivery log's. */
  const cards: { token: string; memo: string }[] = [];
  const transactions: string[] = [];
  let subscriptionToken: string;
  /** An instant after the first three cards were created and before the other four. */
  let mark: Date;

  beforeAll(async () => {
    t = await startTestLedger({ RATE_LIMIT_PER_SECOND: '0', RATE_LIMIT_PER_MINUTE: '0', WEBHOOK_POLL_MS: '50' });
    client = new Lithic({ apiKey: t.apiKey, baseURL: t.baseUrl, maxRetries: 0 });
    subscriptionToken = (await client.events.subscriptions.create({ url: DEAD_URL, event_types: ['card.created'] })).token;
    for (let i = 0; i < 7; i += 1) {
      if (i === 3) mark = await distinctInstant();
      const card = await client.cards.create({ type: 'DIGITAL_WALLET', memo: i % 2 === 0 ? `Groceries ${i}` : `Travel ${i}` });
      cards.push({ token: card.token, memo: card.memo! });
    }
    const pan = (await client.cards.retrieve(cards[0].token)).pan!;
    for (let i = 0; i < 7; i += 1) transactions.push((await client.transactions.simulateAuthorization({ amount: 100 + i, descriptor: `SHOP ${i}`, pan })).token!);
    for (const token of transactions.slice(0, 2)) await client.transactions.simulateVoid({ token, amount: 100 + transactions.indexOf(token) });
  }, 60_000);
  afterAll(async () => {
    await t?.stop();
  });

  /** Returns once the clock has moved past the current millisecond, so creations before and after differ. */
  async function distinctInstant(): Promise<Date> {
    const now = Date.now();
    await eventually('the next millisecond', async () => Date.now() > now, 1000, 1);
    return new Date(Date.now());
  }

  async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
    const all: T[] = [];
    for await (const item of items) all.push(item);
    return all;
  }

  it('walks every card over four pages of two, in creation order', async () => {
    const walked = await collect(client.cards.list({ page_size: 2 }));
    expect(walked.map((card) => card.token)).toEqual(cards.map((card) => card.token));
  });

  it('walks every transaction over four pages of two, in creation order', async () => {
    const walked = await collect(client.transactions.list({ page_size: 2 }));
    expect(walked.map((transaction) => transaction.token)).toEqual(transactions);
  });

  it('walks every event subscription by cursor', async () => {
    for (let i = 0; i < 4; i += 1) await client.events.subscriptions.create({ url: DEAD_URL, disabled: true });
    const all = (await t.call('GET', '/v1/event_subscriptions?page_size=1000')).body.data.map((row: { token: string }) => row.token);
    expect(all).toHaveLength(5);
    const walked = await collect(client.events.subscriptions.list({ page_size: 2 }));
    expect(walked.map((subscription) => subscription.token)).toEqual(all);
  });

  it('walks back from a cursor with ending_before, each page in the list order', async () => {
    const tokens = cards.map((card) => card.token);
    const first = await client.cards.list({ page_size: 2, ending_before: tokens[6] });
    expect(first.data.map((card) => card.token)).toEqual(tokens.slice(4, 6));
    expect(first.has_more).toBe(true);
    const walked = await collect(client.cards.list({ page_size: 2, ending_before: tokens[6] }));
    expect(walked.map((card) => card.token)).toEqual([...tokens.slice(4, 6), ...tokens.slice(2, 4), ...tokens.slice(0, 2)]);
  });

  it('pages the delivery log by cursor too, newest first as its pages are, with message tokens of any UUID version', async () => {
    const path = `/v1/event_subscriptions/${subscriptionToken}/messages`;
    const all: string[] = await eventually('the seven card.created messages', async () => {
      const data = (await t.call('GET', `${path}?page_size=1000`)).body.data as { token: string }[];
      return data.length === 7 ? data.map((message) => message.token) : undefined;
    });
    const walked: string[] = [];
    let query = 'page_size=2';
    for (;;) {
      const { status, body } = await t.call('GET', `${path}?${query}`);
      expect(status).toBe(200);
      expect(Object.keys(body).sort()).toEqual(walked.length === 0 ? ['data', 'has_more', 'page', 'total_entries', 'total_pages'] : ['data', 'has_more']);
      walked.push(...body.data.map((message: { token: string }) => message.token));
      if (!body.has_more) break;
      query = `page_size=2&starting_after=${walked[walked.length - 1]}`;
    }
    expect(walked).toEqual(all);
  });

  it("keeps the spec's page envelope, with has_more beside it", async () => {
    expect((await t.call('GET', '/v1/cards?page=1&page_size=2')).body).toMatchObject({ page: 1, total_entries: 7, total_pages: 4, has_more: true });
    expect((await t.call('GET', '/v1/cards?page=4&page_size=2')).body).toMatchObject({ page: 4, total_entries: 7, total_pages: 4, has_more: false });
    expect((await t.call('GET', '/v1/transactions?page=3&page_size=3')).body).toMatchObject({ page: 3, total_entries: 7, total_pages: 3, has_more: false });
    expect((await t.call('GET', '/v1/transactions?page=2&page_size=3')).body).toMatchObject({ page: 2, has_more: true });
  });

  it('refuses, on every list of the OpenAPI document, a cursor with page or with the other cursor, naming both', async () => {
    type Schema = { $ref?: string; properties?: Record<string, Schema>; type?: string };
    type Operation = { parameters?: { name: string; in: string }[]; responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> };
    const document = (await (await fetch(`${t.baseUrl}/openapi.json`)).json()) as { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };
    const resolve = (schema: Schema | undefined): Schema | undefined => (schema?.$ref ? document.components.schemas[schema.$ref.split('/').pop()!] : schema);
    // A list is any GET answering {data: [...]}: found from the document, so a new list cannot be left out.
    const lists = Object.entries(document.paths)
      .filter(([, operations]) => resolve(operations.get?.responses?.['200']?.content?.['application/json']?.schema)?.properties?.data?.type === 'array')
      .map(([path]) => path);
    // A stream's raw events are read whole, from its first event: the hash chain is verified from there (docs/decisions.md).
    const wholeStreams = ['/v1/cards/{card_token}/events', '/v1/transactions/{transaction_token}/events'];
    // Lithic answers a rule's versions whole, in one unpaged list (V2ListVersionsResponse); and financial
    // accounts and balances too (SinglePage): one account, one balance each here.
    const wholeLists = [
      '/v2/auth_rules/{auth_rule_token}/versions',
      '/v1/financial_accounts',
      '/v1/balances',
      '/v1/financial_accounts/{financial_account_token}/balances',
      '/v1/cards/{card_token}/balances',
    ];
    const paged = lists.filter((path) => !wholeStreams.includes(path) && !wholeLists.includes(path));
    expect(lists).toEqual(expect.arrayContaining([...wholeStreams, ...wholeLists]));
    expect(paged.length).toBeGreaterThanOrEqual(8);
    for (const path of paged) {
      const names = (document.paths[path].get!.parameters ?? []).filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name);
      expect({ path, cursorParameters: ['page', 'page_size', 'starting_after', 'ending_before'].filter((name) => names.includes(name)) }).toEqual({
        path,
        cursorParameters: ['page', 'page_size', 'starting_after', 'ending_before'],
      });
    }
    const messageToken = (await t.call('GET', `/v1/event_subscriptions/${subscriptionToken}/messages`)).body.data[0].token;
    const pathTokens: Record<string, string> = { event_subscription_token: subscriptionToken, message_token: messageToken, card_token: cards[0].token, transaction_token: transactions[0] };
    const failures: string[] = [];
    for (const template of paged) {
      const path = template.replace(/\{(\w+)\}/g, (_, name: string) => pathTokens[name] ?? `unknown-${name}`);
      // Any well-formed token conflicts: the refusal comes before the cursor is looked up.
      const token = cards[0].token;
      for (const [query, named] of [
        [`page=2&starting_after=${token}`, ['page', 'starting_after']],
        [`page=1&ending_before=${token}`, ['page', 'ending_before']],
        [`starting_after=${token}&ending_before=${token}`, ['starting_after', 'ending_before']],
        [`page_size=2&page=1&ending_before=${token}&starting_after=${token}`, ['page', 'starting_after', 'ending_before']],
      ] as const) {
        const { status, body } = await t.call('GET', `${path}?${query}`);
        if (status !== 400 || !named.every((name) => new RegExp(`\\b${name}\\b`).test(body.message))) failures.push(`${path}?${query}: ${status} ${body.message}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('walks funding sources by cursor, oldest first as their pages are', async () => {
    for (let i = 0; i < 3; i += 1) await t.call('POST', '/v1/funding_sources', { body: { account_name: `Bank ${i}`, account_number: `0000000${i}` } });
    const all: string[] = (await t.call('GET', '/v1/funding_sources?page_size=1000')).body.data.map((source: { token: string }) => source.token);
    expect(all).toHaveLength(4);
    const walked: string[] = [];
    let query = 'page_size=1';
    for (;;) {
      const { status, body } = await t.call('GET', `/v1/funding_sources?${query}`);
      expect(status).toBe(200);
      walked.push(...body.data.map((source: { token: string }) => source.token));
      if (!body.has_more) break;
      query = `page_size=1&starting_after=${walked[walked.length - 1]}`;
    }
    expect(walked).toEqual(all);
  });

  it('walks time travel by cursor too, both ways, as its pages show it', async () => {
    const asOf = new Date().toISOString();
    const walk = async (first: string, next: (tokens: string[]) => string) => {
      const walked: string[] = [];
      let query = first;
      for (;;) {
        const { status, body } = await t.call('GET', `/v1/transactions?as_of=${asOf}&page_size=3&${query}`);
        expect(status).toBe(200);
        walked.push(...body.data.map((transaction: { token: string }) => transaction.token));
        if (!body.has_more) return walked;
        query = next(body.data.map((transaction: { token: string }) => transaction.token));
      }
    };
    expect(await walk(`starting_after=${transactions[0]}`, (page) => `starting_after=${page[page.length - 1]}`)).toEqual(transactions.slice(1));
    const back = await walk(`ending_before=${transactions[6]}`, (page) => `ending_before=${page[0]}`);
    expect(back.sort()).toEqual(transactions.slice(0, 6).sort());
    // A cursor page answers Lithic's envelope alone, as every list does.
    const before = (await t.call('GET', `/v1/transactions?as_of=${asOf}&starting_after=${transactions[0]}&page_size=1`)).body;
    expect(before).toEqual({ data: [expect.objectContaining({ token: transactions[1] })], has_more: true });
  });

  it('refuses a cursor that names no item of the list, naming the parameter', async () => {
    const transaction = transactions[0];
    for (const [path, query] of [
      ['/v1/cards', `starting_after=${transaction}`],
      ['/v1/transactions', `ending_before=${cards[0].token}`],
      ['/v1/event_subscriptions', `starting_after=${cards[0].token}`],
      [`/v1/event_subscriptions/${subscriptionToken}/messages`, `starting_after=${cards[0].token}`],
      [`/v1/event_subscriptions/${subscriptionToken}/attempts`, `starting_after=${cards[0].token}`],
      ['/v1/accounts', `starting_after=${cards[0].token}`],
      ['/v1/funding_sources', `ending_before=${cards[0].token}`],
      ['/v1/transactions', `as_of=${new Date().toISOString()}&starting_after=${cards[0].token}`],
    ]) {
      const { status, body } = await t.call('GET', `${path}?${query}`);
      expect({ path, status, message: body.message }).toEqual({ path, status: 400, message: expect.stringMatching(/^(starting_after|ending_before) \S+ is not an? .+ of this list$/) });
    }
  });

  it('reads begin and end as RFC 3339 instants, any offset, and still as days', async () => {
    const tokens = cards.map((card) => card.token);
    const isoWithOffset = (date: Date) => new Date(date.getTime() + 3_600_000).toISOString().replace('Z', '+01:00');
    expect((await collect(client.cards.list({ begin: mark.toISOString() }))).map((card) => card.token)).toEqual(tokens.slice(3));
    expect((await collect(client.cards.list({ end: isoWithOffset(mark) }))).map((card) => card.token)).toEqual(tokens.slice(0, 3));
    expect((await collect(client.cards.list({ begin: mark.toISOString(), page_size: 1 }))).map((card) => card.token)).toEqual(tokens.slice(3));
    const today = new Date().toISOString().slice(0, 10);
    expect(await collect(client.cards.list({ end: today }))).toEqual([]);
    expect(await collect(client.transactions.list({ end: mark.toISOString() }))).toEqual([]);
    const refused = await t.call('GET', '/v1/cards?begin=2026-11-22T10:00:00');
    expect({ status: refused.status, message: refused.body.message }).toEqual({ status: 400, message: expect.stringMatching(/^begin must be a date written YYYY-MM-DD or an RFC 3339 date-time/) });
  });

  it('filters cards by state and by memo text, letter case ignored', async () => {
    await client.cards.update(cards[1].token, { state: 'PAUSED' });
    await client.cards.update(cards[4].token, { state: 'PAUSED' });
    expect((await collect(client.cards.list({ state: 'PAUSED', page_size: 1 }))).map((card) => card.token)).toEqual([cards[1].token, cards[4].token]);
    expect((await collect(client.cards.list({ state: 'OPEN' }))).map((card) => card.token)).toEqual(cards.filter((_, i) => i !== 1 && i !== 4).map((card) => card.token));
    expect(await collect(client.cards.list({ state: 'CLOSED' }))).toEqual([]);
    const travel = cards.filter((card) => card.memo.startsWith('Travel')).map((card) => card.token);
    expect((await collect(client.cards.list({ memo: 'tRAVEL', page_size: 2 }))).map((card) => card.token)).toEqual(travel);
    // LIKE's wildcards and escape are text here like any other character.
    for (const wildcard of ['%', '_', '\\', 'Travel_1', 'Travel%']) expect({ wildcard, cards: await collect(client.cards.list({ memo: wildcard })) }).toEqual({ wildcard, cards: [] });
    expect((await collect(client.cards.list({ memo: 'l 3' }))).map((card) => card.token)).toEqual([cards[3].token]);
    const refused = await t.call('GET', '/v1/cards?state=open');
    expect({ status: refused.status, message: refused.body.message }).toEqual({ status: 400, message: expect.stringMatching(/^state must be one of OPEN, /) });
  });

  it('filters transactions by status', async () => {
    expect((await collect(client.transactions.list({ status: 'VOIDED', page_size: 1 }))).map((transaction) => transaction.token)).toEqual(transactions.slice(0, 2));
    expect((await collect(client.transactions.list({ status: 'PENDING', page_size: 2 }))).map((transaction) => transaction.token)).toEqual(transactions.slice(2));
    expect(await collect(client.transactions.list({ status: 'EXPIRED' }))).toEqual([]);
    expect((await t.call('GET', '/v1/transactions?status=VOIDED&page=1&page_size=1')).body).toMatchObject({ total_entries: 2, total_pages: 2, has_more: true });
    const refused = await t.call('GET', '/v1/transactions?status=voided');
    expect({ status: refused.status, message: refused.body.message }).toEqual({ status: 400, message: expect.stringMatching(/^status must be one of PENDING, /) });
  });
});
