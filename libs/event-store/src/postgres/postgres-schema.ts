/**
 * DDL and statements of the PostgreSQL event store, built once per schema name.
 *
 * Ordering: `global_position` comes from a sequence, so it is handed out at insert time, not at
 * commit time; a transaction holding position 5 can commit after one holding 6. Readers therefore
 * order by (transaction_id, global_position) and only read rows whose transaction id is below the
 * xmin of their snapshot: every transaction below xmin has finished, so no row can ever appear
 * behind a position a reader has passed (the scheme Marten and emmett use).
 */

import { preparedSql, type PreparedSql } from './prepared-sql';

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/** Constraint whose violation means "someone else appended this version first". */
export const STREAM_VERSION_CONSTRAINT = 'events_stream_version_unique';

/** Any constant: it only has to differ from the other advisory locks the application takes. */
export const MIGRATION_LOCK_KEY = 7_340_215_806_119_021;

/** The store's statements; every one but the migration runs again and again, so it is prepared. */
export interface PostgresEventStoreSql {
  readonly migrate: string;
  readonly append: PreparedSql;
  readonly appendGroups: PreparedSql;
  readonly readStream: PreparedSql;
  readonly readAll: PreparedSql;
  readonly readForSubscription: PreparedSql;
  readonly headPosition: PreparedSql;
  readonly notify: PreparedSql;
  readonly channel: string;
}

export function assertIdentifier(name: string, what: string): void {
  // Names are spliced into DDL and LISTEN, which take no parameters: accept plain identifiers only.
  if (!IDENTIFIER.test(name)) throw new Error(`${what} must be a lower-case SQL identifier, got "${name}"`);
}

export function buildSql(schema: string, channel: string): PostgresEventStoreSql {
  assertIdentifier(schema, 'Event store schema');
  assertIdentifier(channel, 'Event store notification channel');
  const events = `"${schema}".events`;
  const columns = `e.stream_id, e.stream_version, e.event_id, e.event_type, e.schema_version, e.data, e.metadata,
    to_char(e.recorded_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as recorded_at,
    e.transaction_id::text as transaction_id, e.global_position::text as global_position`;

  return {
    channel,
    migrate: migrationSql(schema),
    append: preparedSql(`select appended, stream_version, transaction_id, global_position
      from "${schema}".append_events($1::text, $2::text, $3::int, $4::jsonb)`),
    // $1: groups, each [{ stream, kind, version, events }]: the atomic appends of several callers.
    // Within a group every stream's expectation is checked and all or none are inserted; a group
    // refused inserts nothing and leaves the others alone. One statement, so one commit in
    // autocommit for every group. Answers a row per input stream, in input order: the 1-based index
    // within its group of the group's first refused expectation (and that stream's version), or null
    // when the group was appended, with the stream's last version and the position of its last event.
    // The insert runs whether or not the final select reads it, as every data-modifying WITH does.
    // Callers never put two groups that write the same stream, or write one the other checks, in one
    // statement: every group is checked against the same snapshot.
    appendGroups: preparedSql(`with input as (
        select grp.g::int as g, a.n::int as n, a.value->>'stream' as stream_id, a.value->>'kind' as kind,
               (a.value->>'version')::int as expected, a.value->'events' as batch
          from jsonb_array_elements($1::jsonb) with ordinality as grp(value, g)
         cross join lateral jsonb_array_elements(grp.value) with ordinality as a(value, n)),
      current as (
        select input.*, coalesce((select max(e.stream_version) from ${events} e where e.stream_id = input.stream_id), -1) as version
          from input),
      refused as (
        select distinct on (c.g) c.g, c.n, c.version from current c
         where not (case c.kind when 'any' then true when 'no_stream' then c.version = -1
                                when 'stream_exists' then c.version >= 0 else c.version = c.expected end)
         order by c.g, c.n),
      inserted as (
        insert into ${events} (stream_id, stream_version, event_id, event_type, schema_version, data, metadata)
        select c.stream_id, c.version + b.n::int, (b.ev->>'id')::uuid, b.ev->>'type',
               (b.ev->>'schemaVersion')::int, b.ev->'data', b.ev->'metadata'
          from current c cross join lateral jsonb_array_elements(c.batch) with ordinality as b(ev, n)
         where not exists (select 1 from refused r where r.g = c.g)
         order by c.g, c.n, b.n
        returning stream_id, stream_version, transaction_id, global_position),
      last as (
        select distinct on (s.stream_id) s.stream_id, s.stream_version, s.transaction_id, s.global_position
          from inserted s order by s.stream_id, s.stream_version desc)
      select c.g, c.n, r.n::int as refused, r.version as actual,
             case when jsonb_array_length(c.batch) > 0 then last.stream_version end as stream_version,
             case when jsonb_array_length(c.batch) > 0 then last.transaction_id::text end as transaction_id,
             case when jsonb_array_length(c.batch) > 0 then last.global_position::text end as global_position,
             c.version as version_before
        from current c
        left join refused r on r.g = c.g
        left join last on last.stream_id = c.stream_id
       order by c.g, c.n`),
    readStream: preparedSql(`select ${columns} from ${events} e
      where e.stream_id = $1 and e.stream_version >= $2
      order by e.stream_version limit $3`),
    readAll: preparedSql(`select ${columns} from ${events} e
      where (e.transaction_id, e.global_position) > ($1::xid8, $2::bigint)
        and e.transaction_id < pg_snapshot_xmin(pg_current_snapshot())
      order by e.transaction_id, e.global_position limit $3`),
    // Same order, but rows at or above xmin are returned too, flagged not ready: they tell the
    // subscription that committed events wait behind an open transaction, so it polls soon.
    readForSubscription: preparedSql(`select ${columns}, e.transaction_id < pg_snapshot_xmin(pg_current_snapshot()) as ready
      from ${events} e
      where (e.transaction_id, e.global_position) > ($1::xid8, $2::bigint)
      order by e.transaction_id, e.global_position limit $3`),
    headPosition: preparedSql(`select e.transaction_id::text as transaction_id, e.global_position::text as global_position
      from ${events} e order by e.transaction_id desc, e.global_position desc limit 1`),
    notify: preparedSql('select pg_notify($1, $2)'),
  };
}

function migrationSql(schema: string): string {
  const s = `"${schema}"`;
  return `
select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY});

create schema if not exists ${s};

create table if not exists ${s}.events (
  global_position bigserial primary key,
  transaction_id xid8 not null default pg_current_xact_id(),
  stream_id text not null,
  stream_version int not null,
  event_id uuid not null,
  event_type text not null,
  schema_version int not null,
  data jsonb not null,
  metadata jsonb not null,
  recorded_at timestamptz not null default now(),
  constraint events_event_id_unique unique (event_id),
  constraint ${STREAM_VERSION_CONSTRAINT} unique (stream_id, stream_version)
);

create index if not exists events_transaction_position on ${s}.events (transaction_id, global_position);

-- One round trip per append: check the expectation, insert the batch with consecutive versions.
-- Subscribers are notified by the appending process after the commit (CommitAnnouncer): a NOTIFY
-- in here would serialise every append's commit on PostgreSQL's notify lock. A conflict is
-- returned as a row, not raised, so a caller's surrounding transaction stays usable.
-- p_expected_kind: 'exact' (p_expected_version is the stream's last version), 'no_stream',
-- 'stream_exists' or 'any'. p_events: [{ "id", "type", "schemaVersion", "data", "metadata" }].
create or replace function ${s}.append_events(
  p_stream_id text,
  p_expected_kind text,
  p_expected_version int,
  p_events jsonb
) returns table (appended boolean, stream_version int, transaction_id text, global_position text)
language plpgsql
as $fn$
declare
  v_current int;
  v_after_conflict int;
  v_count int := jsonb_array_length(p_events);
  v_position bigint;
  v_positions bigint[];
  v_inserted int;
begin
  if p_expected_kind not in ('exact', 'no_stream', 'stream_exists', 'any') then
    raise exception 'append_events: unknown expected version kind %', p_expected_kind;
  end if;

  loop
    -- A volatile function takes a fresh snapshot per statement, so after a conflict this sees the winner.
    select coalesce(max(e.stream_version), -1) into v_current
      from ${s}.events e where e.stream_id = p_stream_id;

    -- Parenthesised: plpgsql would otherwise end the IF condition at the CASE's first THEN.
    if not (case p_expected_kind
              when 'any' then true
              when 'no_stream' then v_current = -1
              when 'stream_exists' then v_current >= 0
              else v_current = p_expected_version
            end) then
      return query select false, v_current, null::text, null::text;
      return;
    end if;

    if v_count = 0 then
      select e.global_position into v_position
        from ${s}.events e where e.stream_id = p_stream_id and e.stream_version = v_current;
      return query select true, v_current,
        (select e.transaction_id::text from ${s}.events e where e.global_position = v_position),
        v_position::text;
      return;
    end if;

    -- Two appends that read the same current version race for the same (stream_id, stream_version):
    -- the unique key lets exactly one in; the other waits for it to commit and inserts fewer rows than
    -- it meant to. ON CONFLICT rather than catching unique_violation: an exception block opens a
    -- subtransaction per call, and a bulk append of hundreds of streams in one transaction would
    -- overflow every concurrent reader's snapshot into pg_subtrans lookups.
    with inserted as (
      insert into ${s}.events (stream_id, stream_version, event_id, event_type, schema_version, data, metadata)
      select p_stream_id, v_current + b.n::int, (b.ev->>'id')::uuid, b.ev->>'type',
             (b.ev->>'schemaVersion')::int, b.ev->'data', b.ev->'metadata'
        from jsonb_array_elements(p_events) with ordinality as b(ev, n)
       order by b.n
      on conflict on constraint ${STREAM_VERSION_CONSTRAINT} do nothing
      returning ${s}.events.global_position
    )
    select count(*), max(i.global_position), array_agg(i.global_position)
      into v_inserted, v_position, v_positions from inserted i;

    if v_inserted = v_count then
      return query select true, v_current + v_count, pg_current_xact_id()::text, v_position::text;
      return;
    end if;

    -- Lost the race for at least one version: take back the rows this call did insert (all or none
    -- of a batch is appended), then judge the expectation against the winner.
    delete from ${s}.events e where e.global_position = any(v_positions);
    select coalesce(max(e.stream_version), -1) into v_after_conflict
      from ${s}.events e where e.stream_id = p_stream_id;
    -- 'any' and 'stream_exists' still hold against the winner's version: try again.
    if p_expected_kind in ('any', 'stream_exists') and v_after_conflict <> v_current then
      continue;
    end if;
    return query select false, v_after_conflict, null::text, null::text;
    return;
  end loop;
end;
$fn$;
`;
}
