import type { Pool, PoolClient } from 'pg';
import { formatPosition, type GlobalPosition } from '@ledger/event-store';
import { type DigestSigner, type NodeHashes, nodeHashesOf, rootQuery, type SignedDigest, type StoredNode, treeRoot, type TreeNode } from '@ledger/ledger-proof';

/** Its row in projector_checkpoints, moved (and notified) with each batch it stores. */
export const LEDGER_TREE_FOLLOWER = 'ledger-commitment';

/**
 * Inner nodes are kept from this level up (subtrees of 16 leaves and larger). A binary tree has about
 * one inner node per leaf, half of them at level 1: keeping every level wrote two rows per event,
 * keeping from level 4 writes one and an eighth. A node below it is hashed from its at most eight
 * leaves when a digest or a proof asks for it (issue 17's cost to authorizations, docs/benchmarks.md).
 * A database written when lower levels were kept may still hold nodes below it: they are left in
 * place and not read.
 */
export const LOWEST_KEPT_LEVEL = 4;

/** Any constant: it only has to differ from the other advisory locks the application takes. */
const LEDGER_TREE_LOCK_KEY = 6_120_447_093_881_517;

type Queryable = Pool | PoolClient;

/** How far the kept tree reaches: its leaf count and the position of its last leaf's event. */
export interface FollowedHead {
  readonly size: number;
  readonly position: GlobalPosition | null;
}

/** One event's leaf as the tree keeps it. */
export interface KeptLeaf {
  readonly eventId: string;
  readonly position: GlobalPosition;
  readonly hash: Buffer;
}

/** Where an event sits in the kept tree, and the position before it (to read the event back). */
export interface LeafPlace {
  readonly index: number;
  readonly position: GlobalPosition;
  readonly previous: GlobalPosition | null;
}

/**
 * The ledger-wide commitment kept in PostgreSQL as the log grows (docs/audit.md, "Cost"): every leaf
 * hash by leaf index, with its event's id and position, and every complete subtree's root above the
 * leaves. Rows are only ever added, by one follower at a time (LedgerTreeFollower); readers ask for
 * the O(log n) nodes a root or a proof needs. Nothing here is trusted by `admin verify`, which hashes
 * the events themselves.
 */
export class LedgerTreeTables {
  private migrated: Promise<void> | null = null;

  constructor(private readonly pool: Pool) {}

  /** Creates the tables once per process (concurrent starts wait on an advisory lock). */
  migrate(): Promise<void> {
    this.migrated ??= this.pool
      .query(
        `select pg_advisory_xact_lock(${LEDGER_TREE_LOCK_KEY});
         create table if not exists ledger_tree_leaves (
           leaf_index bigint primary key,
           event_id uuid not null unique,
           commit_position bigint not null,
           prepare_position bigint not null,
           hash bytea not null
         );
         create table if not exists ledger_tree_nodes (
           level smallint not null,
           node_index bigint not null,
           hash bytea not null,
           primary key (level, node_index)
         );`,
      )
      .then(() => undefined)
      .catch((error: unknown) => {
        this.migrated = null;
        throw error;
      });
    return this.migrated;
  }

  async head(sql: Queryable = this.pool): Promise<FollowedHead> {
    await this.migrate();
    // Ordered by the column, not by its text (an output name would win in ORDER BY: "9" > "10").
    const { rows } = await sql.query<{ last: string; commit: string; prepare: string }>(
      `select l.leaf_index::text as last, l.commit_position::text as commit, l.prepare_position::text as prepare
         from ledger_tree_leaves l order by l.leaf_index desc limit 1`,
    );
    return rows[0] ? { size: Number(rows[0].last) + 1, position: { commit: BigInt(rows[0].commit), prepare: BigInt(rows[0].prepare) } } : { size: 0, position: null };
  }

  /**
   * The nodes asked for, in one round trip: level 0 from the leaves, levels below
   * LOWEST_KEPT_LEVEL hashed up from their leaves (at most 2^(LOWEST_KEPT_LEVEL-1) each), the rest
   * from the kept nodes.
   */
  async nodes(needs: readonly TreeNode[], sql: Queryable = this.pool): Promise<NodeHashes> {
    await this.migrate();
    const low = needs.filter((node) => node.level > 0 && node.level < LOWEST_KEPT_LEVEL);
    const leafIndexes = [
      ...needs.filter((node) => node.level === 0).map((node) => node.index),
      ...low.flatMap((node) => Array.from({ length: 2 ** node.level }, (_, offset) => node.index * 2 ** node.level + offset)),
    ];
    const inner = needs.filter((node) => node.level >= LOWEST_KEPT_LEVEL);
    const leaves = [...new Set(leafIndexes)].map(String);
    const { rows } = await sql.query<{ level: number; node_index: string; hash: Buffer }>(
      `select 0 as level, leaf_index::text as node_index, hash from ledger_tree_leaves where leaf_index = any($1::bigint[])
       union all
       select n.level, n.node_index::text, n.hash
         from unnest($2::smallint[], $3::bigint[]) as wanted(level, node_index)
         join ledger_tree_nodes n on n.level = wanted.level and n.node_index = wanted.node_index`,
      [leaves, inner.map((node) => node.level), inner.map((node) => String(node.index))],
    );
    const found = rows.map((row) => ({ level: Number(row.level), index: Number(row.node_index), hash: row.hash }));
    const leafHashes = new Map(found.filter((node) => node.level === 0).map((node) => [node.index, node.hash]));
    const hashedUp = low.flatMap((node) => {
      const hash = subtreeHash(leafHashes, node);
      return hash ? [{ level: node.level, index: node.index, hash }] : [];
    });
    return nodeHashesOf([...found, ...hashedUp]);
  }

  /** The event's leaf, or null when the tree does not (yet) hold it. */
  async leafOf(eventId: string): Promise<LeafPlace | null> {
    await this.migrate();
    const { rows } = await this.pool.query<{ leaf_index: string; commit: string; prepare: string; previous_commit: string | null; previous_prepare: string | null }>(
      `select l.leaf_index::text, l.commit_position::text as commit, l.prepare_position::text as prepare,
              p.commit_position::text as previous_commit, p.prepare_position::text as previous_prepare
         from ledger_tree_leaves l left join ledger_tree_leaves p on p.leaf_index = l.leaf_index - 1
        where l.event_id = $1::uuid`,
      [eventId],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      index: Number(row.leaf_index),
      position: { commit: BigInt(row.commit), prepare: BigInt(row.prepare) },
      previous: row.previous_commit === null || row.previous_prepare === null ? null : { commit: BigInt(row.previous_commit), prepare: BigInt(row.previous_prepare) },
    };
  }

  /**
   * Adds leaves from `firstIndex` on and the inner nodes they complete from LOWEST_KEPT_LEVEL up
   * (lower ones are hashed from the leaves when asked for); inside the caller's transaction.
   */
  async append(client: PoolClient, firstIndex: number, leaves: readonly KeptLeaf[], completed: readonly StoredNode[]): Promise<void> {
    const nodes = completed.filter((node) => node.level >= LOWEST_KEPT_LEVEL);
    await client.query(
      `insert into ledger_tree_leaves (leaf_index, event_id, commit_position, prepare_position, hash)
       select $1::bigint + i - 1, e, c, p, decode(h, 'hex')
         from unnest($2::uuid[], $3::bigint[], $4::bigint[], $5::text[]) with ordinality as l(e, c, p, h, i)`,
      [
        String(firstIndex),
        leaves.map((leaf) => leaf.eventId),
        leaves.map((leaf) => leaf.position.commit.toString()),
        leaves.map((leaf) => leaf.position.prepare.toString()),
        leaves.map((leaf) => leaf.hash.toString('hex')),
      ],
    );
    if (nodes.length === 0) return;
    await client.query(
      `insert into ledger_tree_nodes (level, node_index, hash)
       select l, n, decode(h, 'hex') from unnest($1::smallint[], $2::bigint[], $3::text[]) as t(l, n, h)`,
      [nodes.map((node) => node.level), nodes.map((node) => String(node.index)), nodes.map((node) => node.hash.toString('hex'))],
    );
  }
}

/** A signed digest of the kept tree at `head`: O(log n) nodes read, one root computed, one signature. */
export async function signKeptTree(tables: LedgerTreeTables, signer: DigestSigner, head: FollowedHead): Promise<SignedDigest> {
  const query = rootQuery(head.size);
  const root = query.answer(await tables.nodes(query.needs));
  return signer.sign({ tree_size: head.size, position: head.position ? formatPosition(head.position) : null, root: root.toString('hex'), signed_at: new Date().toISOString() });
}

/** The root of a complete subtree from its leaves (ledger-proof's treeRoot over them); null when a leaf is missing. */
function subtreeHash(leaves: ReadonlyMap<number, Buffer>, node: TreeNode): Buffer | null {
  const first = node.index * 2 ** node.level;
  const own = Array.from({ length: 2 ** node.level }, (_, offset) => leaves.get(first + offset));
  return own.every((leaf): leaf is Buffer => leaf !== undefined) ? treeRoot(own) : null;
}
