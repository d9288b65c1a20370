import type { EntityManager } from 'typeorm';
import { START, comparePositions, type FeedPosition } from '@libs/event-store';
import { LOCK_NAMESPACE } from './advisory-locks';
import { checkpointNames } from './shards';

export interface CheckpointRow {
  name: string;
  position: FeedPosition;
  eventsApplied: number;
  owner: string | null;
  updatedAt: Date | null;
  rebuiltAt: Date | null;
}

interface RawCheckpoint {
  name: string;
  commit_position: string;
  prepare_position: string;
  events_applied: string;
  owner: string | null;
  updated_at: Date | null;
  rebuilt_at: Date | null;
}

function toRow(r: RawCheckpoint): CheckpointRow {
  return {
    name: r.name,
    position: { commit: BigInt(r.commit_position), prepare: BigInt(r.prepare_position) },
    eventsApplied: Number(r.events_applied),
    owner: r.owner,
    updatedAt: r.updated_at,
    rebuiltAt: r.rebuilt_at,
  };
}

/**
 * Whether every named projection has applied the feed up to `position` in every shard (a
 * projection without a checkpoint has not): what a read waits for to see a write.
 */
export async function projectionsReached(m: Pick<EntityManager, 'query'>, names: readonly string[], position: FeedPosition): Promise<boolean> {
  const rows: Pick<RawCheckpoint, 'name' | 'commit_position' | 'prepare_position'>[] = await m.query(
    `SELECT split_part(name, '#', 1) AS name, commit_position, prepare_position FROM projection_checkpoints WHERE split_part(name, '#', 1) = ANY($1::text[])`,
    [names],
  );
  return new Set(rows.map((r) => r.name)).size === new Set(names).size && rows.every((r) => comparePositions({ commit: BigInt(r.commit_position), prepare: BigInt(r.prepare_position) }, position) >= 0);
}

/** The projector's checkpoints are kept under another shard count: it must be rebuilt (`projections rebuild NAME`) to change it. */
export class ShardCountChangedError extends Error {
  override readonly name = 'ShardCountChangedError';
}

/**
 * Makes sure the projector's checkpoints under `count` shards exist, in one transaction under a
 * lock of the projector's. Missing ones start from the single-shard checkpoint (going from one
 * shard to several: at its position every organisation's events up to it are applied, so each
 * shard's are), which is then removed, or from zero. Checkpoints kept under another count of
 * several shards cannot be split again: ShardCountChangedError (a rebuild resets them).
 */
export async function prepareShardCheckpoints(m: EntityManager, name: string, count: number): Promise<void> {
  const wanted = checkpointNames(name, count);
  const present: { name: string }[] = await m.query(`SELECT name FROM projection_checkpoints WHERE name = ANY($1::text[])`, [wanted]);
  if (present.length === wanted.length) return;
  await m.transaction(async (t) => {
    await t.query(`SELECT pg_advisory_xact_lock($1, hashtext($2))`, [LOCK_NAMESPACE.shardSetup, name]);
    const rows: Pick<RawCheckpoint, 'name' | 'commit_position' | 'prepare_position'>[] = await t.query(
      `SELECT name, commit_position, prepare_position FROM projection_checkpoints WHERE split_part(name, '#', 1) = $1 FOR UPDATE`,
      [name],
    );
    const have = new Set(rows.map((r) => r.name));
    if (wanted.every((w) => have.has(w))) return;
    const foreign = rows.filter((r) => !wanted.includes(r.name) && r.name !== name);
    if (foreign.length || (count <= 1 && rows.some((r) => r.name !== name))) {
      throw new ShardCountChangedError(`projection ${name} has checkpoints under another shard count (${rows.map((r) => r.name).join(', ')}): rebuild it to run it in ${count} shard(s)`);
    }
    const single = rows.find((r) => r.name === name);
    const from = single ? [single.commit_position, single.prepare_position] : ['0', '0'];
    await t.query(
      `INSERT INTO projection_checkpoints (name, commit_position, prepare_position) SELECT n, $2, $3 FROM unnest($1::text[]) AS n ON CONFLICT (name) DO NOTHING`,
      [wanted, ...from],
    );
    if (single && count > 1) await t.query(`DELETE FROM projection_checkpoints WHERE name = $1`, [name]);
  });
}

/** Projection checkpoints live in PostgreSQL next to the read models, whatever the event store. */
export const checkpoints = {
  async ensure(m: EntityManager, name: string): Promise<CheckpointRow> {
    await m.query(
      `INSERT INTO projection_checkpoints (name, commit_position, prepare_position) VALUES ($1, 0, 0)
       ON CONFLICT (name) DO NOTHING`,
      [name],
    );
    return (await this.get(m, name)) as CheckpointRow;
  },

  async get(m: EntityManager, name: string): Promise<CheckpointRow | null> {
    const rows: RawCheckpoint[] = await m.query(`SELECT * FROM projection_checkpoints WHERE name = $1`, [name]);
    return rows.length ? toRow(rows[0]) : null;
  },

  async all(m: EntityManager): Promise<CheckpointRow[]> {
    const rows: RawCheckpoint[] = await m.query(`SELECT * FROM projection_checkpoints ORDER BY name`);
    return rows.map(toRow);
  },

  async setOwner(m: EntityManager, name: string, owner: string): Promise<void> {
    await m.query(`UPDATE projection_checkpoints SET owner = $2 WHERE name = $1`, [name, owner]);
  },

  /** Compare-and-set: moves the checkpoint only if it is still where the batch started. */
  async advance(
    query: (text: string, params: unknown[]) => Promise<{ n: number }[]>,
    name: string,
    from: FeedPosition,
    to: FeedPosition,
    applied: number,
  ): Promise<boolean> {
    const rows = await query(
      `WITH u AS (
         UPDATE projection_checkpoints
            SET commit_position = $2, prepare_position = $3, events_applied = events_applied + $6, updated_at = now()
          WHERE name = $1 AND commit_position = $4 AND prepare_position = $5
         RETURNING 1)
       SELECT count(*)::int AS n FROM u`,
      [name, to.commit.toString(), to.prepare.toString(), from.commit.toString(), from.prepare.toString(), applied],
    );
    return rows[0].n === 1;
  },

  /** Removes every checkpoint of the projector that is not one of `keep` (a rebuild's swap: other shard counts). */
  async removeOthers(m: EntityManager, name: string, keep: readonly string[]): Promise<void> {
    await m.query(`DELETE FROM projection_checkpoints WHERE split_part(name, '#', 1) = $1 AND NOT (name = ANY($2::text[]))`, [name, keep]);
  },

  /** Sets the checkpoint unconditionally (end of a rebuild). */
  async reset(m: EntityManager, name: string, to: FeedPosition, applied: number): Promise<void> {
    await m.query(
      `INSERT INTO projection_checkpoints (name, commit_position, prepare_position, events_applied, updated_at, rebuilt_at)
       VALUES ($1, $2, $3, $4, now(), now())
       ON CONFLICT (name) DO UPDATE SET commit_position = $2, prepare_position = $3, events_applied = $4,
         updated_at = now(), rebuilt_at = now()`,
      [name, to.commit.toString(), to.prepare.toString(), applied],
    );
  },
};

export { START };
