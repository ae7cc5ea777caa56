import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { runAdminCommand, runOfflineVerify, type AuditReport, type DigestFile } from '@ledger/admin';
import { eventHash, GENESIS_HASH } from '@ledger/event-store';
import { verifyConsistency, verifyDigest } from '@ledger/ledger-proof';
import { DigestKeys } from '@ledger/runtime';
import { startTestLedger, TestLedger } from './test-ledger';

/**
 * The ledger-wide commitment against a dishonest database administrator: a digest saved before the
 * tampering, then each manipulation straight in the table, then `verify --digest`, which must fail and
 * name the first event (by log index and position) that departs from the digest.
 */
let t: TestLedger;
let dir: string;
let digestFile: string;
let digest: DigestFile;
let cards: string[];

interface Row {
  global_position: string;
  transaction_id: string;
  stream_id: string;
  stream_version: number;
  event_id: string;
  event_type: string;
  schema_version: number;
  data: any;
  metadata: any;
}

/** The log in order, as the table holds it. */
async function rows(): Promise<Row[]> {
  return (await t.pool.query(`select global_position::text, transaction_id::text, stream_id, stream_version, event_id, event_type, schema_version, data, metadata from events order by transaction_id, global_position`)).rows;
}

const positionOf = (row: Row) => `${row.transaction_id}/${row.global_position}`;

async function verifyAgainst(file: string): Promise<AuditReport> {
  const outcome = await runAdminCommand(t.ledger.app, ['verify', '--digest', file]);
  expect(outcome.ok).toBe((outcome.output as AuditReport).intact);
  return outcome.output as AuditReport;
}

/** Re-chains a stream from `fromVersion` on with the published per-stream algorithm, after `edit` changed the data. */
async function rechain(streamId: string, fromVersion: number, edit: (data: any, version: number) => any): Promise<void> {
  const stream = (await rows()).filter((row) => row.stream_id === streamId);
  let previousHash = fromVersion === 0 ? GENESIS_HASH : stream[fromVersion - 1].metadata.hash;
  for (const row of stream.slice(fromVersion)) {
    const data = edit(row.data, row.stream_version);
    const metadata = { ...row.metadata, previousHash };
    metadata.hash = eventHash(previousHash, { streamId, streamVersion: row.stream_version, type: row.event_type, schemaVersion: row.schema_version, data, metadata });
    await t.pool.query(`update events set data = $2, metadata = $3 where event_id = $1`, [row.event_id, data, metadata]);
    previousHash = metadata.hash;
  }
}

beforeAll(async () => {
  t = await startTestLedger({});
  dir = mkdtempSync(path.join(tmpdir(), 'ledger-digest-'));
  cards = [];
  for (let c = 0; c < 3; c++) {
    const card = (await t.call('POST', '/v1/cards', { body: { type: 'DIGITAL_WALLET', spend_limit: 100_000 } })).body;
    cards.push(card.token);
    for (const amount of [300, 200, 100]) await t.call('POST', '/v1/simulate/authorize', { body: { pan: card.pan, amount, descriptor: 'Shop' } });
  }
  await t.call('PATCH', `/v1/cards/${cards[0]}`, { body: { state: 'CLOSED' } });
  // Later events, so that the tampered events are not the log's last.
  await t.call('POST', '/v1/cards', { body: { type: 'DIGITAL_WALLET' } });
  digestFile = path.join(dir, 'digest.json');
  const taken = await runAdminCommand(t.ledger.app, ['digest', '--out', digestFile]);
  expect(taken.ok).toBe(true);
  digest = JSON.parse(readFileSync(digestFile, 'utf8'));
  await t.pool.query(`drop table if exists events_before_tampering`);
  await t.pool.query(`create table events_before_tampering as select * from events`);
});

afterEach(async () => {
  // Each manipulation starts from the log the digest covers.
  await t.pool.query(`delete from events`);
  await t.pool.query(`insert into events select * from events_before_tampering`);
});

afterAll(async () => {
  await t?.pool.query(`drop table if exists events_before_tampering`);
  await t?.stop();
  rmSync(dir, { recursive: true, force: true });
});

it('a clean store verifies against a digest taken from it, and against the API digest', async () => {
  expect(digest.tree_size).toBe((await rows()).length);
  expect(await verifyAgainst(digestFile)).toMatchObject({ intact: true, first_mismatch: null, events_checked: digest.tree_size });
  const fromApi = (await t.call('GET', '/v1/audit/digest')).body;
  expect(fromApi).toMatchObject({ tree_size: digest.tree_size, position: digest.position, root: digest.root, key_id: digest.key_id });
  const apiFile = path.join(dir, 'api-digest.json');
  writeFileSync(apiFile, JSON.stringify(fromApi));
  expect(await verifyAgainst(apiFile)).toMatchObject({ intact: true });
});

/** Each manipulation, and the log index it must be named at (computed from the log before it). */
const tampers: Record<string, () => Promise<{ index: number; reason: RegExp }>> = {
  "edit one event's data": async () => {
    const log = await rows();
    const index = log.findIndex((row) => row.event_type === 'CardAuthorizationApproved' && row.data.amount === 300);
    await t.pool.query(`update events set data = jsonb_set(data, '{amount}', '1') where event_id = $1`, [log[index].event_id]);
    return { index, reason: /altered/ };
  },
  "edit one event's metadata": async () => {
    const log = await rows();
    const index = 4;
    await t.pool.query(`update events set metadata = jsonb_set(metadata, '{occurredAt}', '"2020-01-01T00:00:00.000Z"') where event_id = $1`, [log[index].event_id]);
    return { index, reason: /altered/ };
  },
  're-chain a stream with the per-stream algorithm (amount 300 to 1)': async () => {
    const log = await rows();
    const streamId = `card-${cards[1]}`;
    const victim = log.find((row) => row.stream_id === streamId && row.data.amount === 300)!;
    await rechain(streamId, victim.stream_version, (data, version) => (version === victim.stream_version ? { ...data, amount: 1 } : data));
    return { index: log.indexOf(victim), reason: /re-chained/ };
  },
  "delete a stream's last event (a card's CardClosed)": async () => {
    const log = await rows();
    const stream = log.filter((row) => row.stream_id === `card-${cards[0]}`);
    const index = log.indexOf(stream[stream.length - 1]);
    expect(log[index].event_type).toBe('CardClosed');
    expect(index).toBeLessThan(log.length - 1);
    await t.pool.query(`delete from events where event_id = $1`, [log[index].event_id]);
    return { index, reason: /deleted/ };
  },
  'delete a middle event': async () => {
    const log = await rows();
    const index = Math.floor(log.length / 2);
    await t.pool.query(`delete from events where event_id = $1`, [log[index].event_id]);
    return { index, reason: /deleted/ };
  },
  'insert a forged event, chained as a new stream of its own': async () => {
    const log = await rows();
    // The first event from the 6th on that ends its transaction (an authorization writes two events
    // in one): a later row of that transaction is ordered right after it.
    const at = log.findIndex((row, i) => i >= 5 && log[i + 1]?.transaction_id !== row.transaction_id);
    const after = log[at];
    const streamId = `card-${randomUUID()}`;
    const metadata: any = { eventId: randomUUID(), correlationId: randomUUID(), causationId: null, programToken: after.metadata.programToken, occurredAt: after.metadata.occurredAt, previousHash: GENESIS_HASH };
    const data = { cardToken: streamId.slice(5), spendLimit: 999_999 };
    metadata.hash = eventHash(GENESIS_HASH, { streamId, streamVersion: 0, type: 'CardCreated', schemaVersion: 1, data, metadata });
    // Same transaction as that event, a later row: the store orders it right after that event.
    await t.pool.query(`insert into events (global_position, transaction_id, stream_id, stream_version, event_id, event_type, schema_version, data, metadata) values ($1, $2::xid8, $3, 0, $4, 'CardCreated', 1, $5, $6)`, [
      String(BigInt(after.global_position) * 1000n + 7n),
      after.transaction_id,
      streamId,
      metadata.eventId,
      data,
      metadata,
    ]);
    const tampered = await rows();
    expect(tampered.findIndex((row) => row.stream_id === streamId)).toBe(at + 1);
    return { index: at + 1, reason: /inserted/ };
  },
  'swap two events (their places in the log)': async () => {
    const log = await rows();
    const [a, b] = [log[7], log[8]];
    await t.pool.query(`update events set global_position = -1 where event_id = $1`, [a.event_id]);
    await t.pool.query(`update events set global_position = $2, transaction_id = $3::xid8 where event_id = $1`, [b.event_id, a.global_position, a.transaction_id]);
    await t.pool.query(`update events set global_position = $2, transaction_id = $3::xid8 where event_id = $1`, [a.event_id, b.global_position, b.transaction_id]);
    return { index: 7, reason: /altered|swapped/ };
  },
  "truncate the log's tail": async () => {
    const log = await rows();
    for (const row of log.slice(-3)) await t.pool.query(`delete from events where event_id = $1`, [row.event_id]);
    return { index: log.length - 3, reason: /tail was removed/ };
  },
  'replace a whole stream with a freshly chained one': async () => {
    const log = await rows();
    const streamId = `card-${cards[2]}`;
    await rechain(streamId, 0, (data) => ('amount' in data ? { ...data, amount: data.amount + 1 } : { ...data, memo: 'replaced' }));
    return { index: log.findIndex((row) => row.stream_id === streamId), reason: /replaced/ };
  },
};

describe.each(Object.keys(tampers))('%s', (name) => {
  it('is detected against the digest taken before, and named by its index and position', async () => {
    const before = await rows();
    const expected = await tampers[name]();
    const report = await verifyAgainst(digestFile);
    const named = expected.reason.source.includes('tail') ? before[expected.index - 1] : before[expected.index];
    expect(report).toMatchObject({ intact: false, first_mismatch: { index: expected.index, reason: expect.stringMatching(expected.reason) } });
    if (!/deleted|tail/.test(expected.reason.source)) expect(report.first_mismatch?.position).toBe(positionOf((await rows())[expected.index]));
    else expect(report.first_mismatch?.position).toBe(/tail/.test(expected.reason.source) ? positionOf(named) : positionOf(before[expected.index + 1]));
  });

  it('is detected against the API digest, which holds only a root', async () => {
    const fromApi = { ...digest, leaf_hashes: undefined };
    const apiFile = path.join(dir, `api-${name.replace(/\W+/g, '-')}.json`);
    writeFileSync(apiFile, JSON.stringify(fromApi));
    await tampers[name]();
    const report = await verifyAgainst(apiFile);
    expect(report.intact).toBe(false);
    expect(report.first_mismatch?.reason).toEqual(expect.any(String));
  });
});

describe('proofs for auditors', () => {
  it("gives a program an inclusion proof of its own event only, which verifies offline against the saved digest", async () => {
    const event = (await rows())[3];
    const proof = await t.call('GET', `/v1/audit/proof/${event.event_id}?tree_size=${digest.tree_size}`);
    expect(proof.status).toBe(200);
    expect(proof.body).toMatchObject({ leaf_index: 3, tree_size: digest.tree_size, root: digest.root, event: { position: positionOf(event) } });
    const proofFile = path.join(dir, 'proof.json');
    writeFileSync(proofFile, JSON.stringify(proof.body));
    const key = digest.public_key;
    // No database: only the files and the pinned public key.
    expect(await runOfflineVerify(['verify', '--proof', proofFile, '--digest', digestFile, '--key', key], [])).toMatchObject({ ok: true, output: { intact: true } });
    for (const forged of [{ ...proof.body, event: { ...proof.body.event, data: { ...proof.body.event.data, forged: true } } }, { ...proof.body, leaf_index: 2 }]) {
      writeFileSync(proofFile, JSON.stringify(forged));
      const outcome = await runOfflineVerify(['verify', '--proof', proofFile, '--digest', digestFile, '--key', key], []);
      expect(outcome).toMatchObject({ ok: false, output: { first_mismatch: { position: positionOf(event) } } });
    }
    // Another key is not trusted; no key at all is refused.
    expect((await runOfflineVerify(['verify', '--proof', proofFile, '--digest', digestFile], []))!.ok).toBe(false);
    const other = await t.createProgram('other-auditor');
    expect((await t.call('GET', `/v1/audit/proof/${event.event_id}`, { apiKey: other.apiKey })).status).toBe(404);
    expect((await t.call('GET', `/v1/audit/proof/${randomUUID()}`)).status).toBe(404);
    // Past the head: the whole log now, and the answer says so; before the event: no such event in that tree.
    expect((await t.call('GET', `/v1/audit/proof/${event.event_id}?tree_size=99999999`)).body.tree_size).toBe((await rows()).length);
    expect((await t.call('GET', `/v1/audit/proof/${event.event_id}?tree_size=3`)).status).toBe(404);
  });

  it('takes the digest size under the digest\'s own field name, tree_size, and still under its former name', async () => {
    const event = (await rows())[3];
    const byTreeSize = await t.call('GET', `/v1/audit/proof/${event.event_id}?tree_size=${digest.tree_size}`);
    const byFormerName = await t.call('GET', `/v1/audit/proof/${event.event_id}?digest_position=${digest.tree_size}`);
    expect(byTreeSize.status).toBe(200);
    expect(byFormerName.body).toEqual(byTreeSize.body);
    // Both given: tree_size, the digest's own name, wins.
    expect((await t.call('GET', `/v1/audit/proof/${event.event_id}?tree_size=${digest.tree_size}&digest_position=4`)).body).toEqual(byTreeSize.body);
  });

  it('exports a program with per-event proofs that verify offline against the saved digest, and names an edited line', async () => {
    const programToken = (await t.call('GET', '/v1/accounts')).body.data[0].token;
    const file = path.join(dir, 'program.jsonl');
    expect((await runAdminCommand(t.ledger.app, ['export', '--program', programToken, '--out', file, '--digest', digestFile])).ok).toBe(true);
    const key = ['--key', digest.public_key];
    expect(await runOfflineVerify(['verify', '--file', file, '--digest', digestFile, ...key], [])).toMatchObject({ ok: true, output: { intact: true } });
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines.length).toBeGreaterThan(10);
    const edited = JSON.parse(lines[5]);
    edited.data = { ...edited.data, amount: 1 };
    writeFileSync(file, [...lines.slice(0, 5), JSON.stringify(edited), ...lines.slice(6)].join('\n'));
    expect(await runOfflineVerify(['verify', '--file', file, '--digest', digestFile, ...key], [])).toMatchObject({ ok: false, output: { first_mismatch: { line: 6, position: edited.position } } });
    // Dropping a line leaves every proof valid but the stream's chain broken at the next event.
    writeFileSync(file, [...lines.slice(0, 5), ...lines.slice(6)].join('\n'));
    const dropped = await runOfflineVerify(['verify', '--file', file, '--digest', digestFile, ...key], []);
    expect(dropped!.ok).toBe(false);
  });

  it('proves that a later digest extends an earlier one', async () => {
    await t.call('POST', '/v1/cards', { body: { type: 'DIGITAL_WALLET' } });
    const later = (await t.call('GET', '/v1/audit/digest')).body;
    expect(later.tree_size).toBeGreaterThan(digest.tree_size);
    expect(verifyDigest(later, t.ledger.app.get(DigestKeys).trusted)).toEqual({ valid: true });
    const answer = (await t.call('GET', `/v1/audit/consistency?from=${digest.tree_size}&to=${later.tree_size}`)).body;
    const hex = (text: string) => Buffer.from(text, 'hex');
    expect(answer).toMatchObject({ from_root: digest.root, to_root: later.root });
    expect(verifyConsistency(digest.tree_size, later.tree_size, hex(digest.root), hex(later.root), answer.proof.map(hex))).toBe(true);
    expect((await t.call('GET', `/v1/audit/consistency?from=${later.tree_size}&to=${digest.tree_size}`)).status).toBe(400);
    expect((await t.call('GET', `/v1/audit/consistency?from=${digest.tree_size}&to=99999999`)).body).toMatchObject({ to: later.tree_size, to_root: later.root });
  });
});
