import { Pool, type Client } from 'pg';
import { createDataSource } from '@libs/database';
import { EventSchemaRegistry, PostgresEventStore } from '@libs/event-store';
import { ProjectionRebuilder, type Projector } from '@libs/projection-engine';
import { PROJECTOR_GROUPS } from '@projections';

/** One unit of work (a projector, or with issue 34 part 2 a (group, shard)) and the worker holding it. */
export interface UnitOwner {
  unit: string;
  owner: string | null;
  /** The owner's process id (owners are `<host>:<pid>[:<tag>]`). */
  pid: string | null;
  since: Date | null;
  /** Whether this row names another owner than `before`, taken later. */
  changedSince(before: UnitOwner): boolean;
}

/**
 * Who holds what. With sharded projectors (issue 34 part 2, `projection_shard_owners`: one row per
 * (group, shard), `since` moving only when the unit changes hands) the units are the shards; on a
 * database without that table, the units are the projectors of `projection_checkpoints`, one
 * owner each. The test bed's "shards moved" check holds for both, and is stricter with shards
 * (more units, each of which must move, with a later `since`).
 */
export async function shardOwners(sql: Client): Promise<UnitOwner[]> {
  const sharded = (await sql.query(`SELECT to_regclass('projection_shard_owners') IS NOT NULL AS yes`)).rows[0].yes as boolean;
  const rows = sharded
    ? (await sql.query<{ unit: string; owner: string | null; since: Date | null }>(`SELECT group_name || '#' || shard AS unit, owner, since FROM projection_shard_owners ORDER BY 1`)).rows
    : (await sql.query<{ unit: string; owner: string | null; since: Date | null }>(`SELECT name AS unit, owner, NULL::timestamptz AS since FROM projection_checkpoints ORDER BY 1`)).rows;
  return rows.map((r) => ({
    ...r,
    pid: r.owner?.split(':')[1] ?? null,
    changedSince(before: UnitOwner) {
      return this.owner !== before.owner && (before.since === null || (this.since !== null && this.since > before.since));
    },
  }));
}

/**
 * Every row of a table, in a stable order, as JSON text, each fractional number to 9 places: a
 * rollup's float sums are the same figures added in another order by live batches and by a rebuild
 * (the provider rollups, a GROUP BY of the fine ones after a bulk rebuild), equal but for the last
 * bits; a row missing, doubled or different in any other way still differs.
 */
async function snapshot(sql: Client, table: string): Promise<string[]> {
  const rows = (await sql.query<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM ${table} t`)).rows;
  const rounded = (_key: string, v: unknown) => (typeof v === 'number' && !Number.isInteger(v) ? Math.round(v * 1e9) / 1e9 + 0 : v);
  return rows.map((r) => JSON.stringify(JSON.parse(r.row, rounded))).sort();
}

/**
 * Rebuilds every read model (but the webhook deliveries, a side effect) from position zero in
 * this one process and compares each table with what the processes built: no row missing, none
 * doubled, none different. Returns the tables compared and their row counts.
 */
export async function rebuildAndCompare(sql: Client, databaseUrl: string): Promise<Record<string, number>> {
  const projectors: Projector[] = Object.entries(PROJECTOR_GROUPS)
    .filter(([group]) => group !== 'webhooks')
    .flatMap(([, list]) => list);
  const built = new Map<string, string[]>();
  for (const p of projectors) for (const t of p.tables) built.set(t, await snapshot(sql, t));
  const ds = await createDataSource(databaseUrl, 4).initialize();
  const store = new PostgresEventStore({ pool: new Pool({ connectionString: databaseUrl, max: 4 }), ownsPool: true, connectionString: databaseUrl, registry: new EventSchemaRegistry() });
  try {
    const rebuilder = new ProjectionRebuilder(ds, store, 2000);
    for (const p of projectors) await rebuilder.rebuild(p);
  } finally {
    await store.close();
    await ds.destroy();
  }
  const counts: Record<string, number> = {};
  for (const [table, rows] of built) {
    expect({ table, rows: await snapshot(sql, table) }).toEqual({ table, rows });
    counts[table] = rows.length;
  }
  return counts;
}
