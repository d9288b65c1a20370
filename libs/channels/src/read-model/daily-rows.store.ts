import type { EntityManager } from 'typeorm';
import type { ChannelData } from '../domain';
import type { BrandMap } from './brand-map';

type Query = Pick<EntityManager, 'query'>;

/** Whose rows these are. */
export interface RowOwner {
  organizationId: number;
  clientId: number;
  channelId: number;
  kind: string;
}

const BATCH = 5000;

interface TableSpec {
  table: string;
  /** Key columns besides (channel_id, day, brand) and their pg array types. */
  keys: [string, string][];
  /** Figure columns and their pg array types. */
  figures: [string, string][];
}

const TABLES = {
  metrics: {
    table: 'channel_metrics_daily',
    keys: [],
    figures: [
      ['sessions', 'bigint'],
      ['users', 'bigint'],
      ['new_users', 'bigint'],
      ['pageviews', 'bigint'],
      ['conversions', 'numeric'],
      ['revenue', 'numeric'],
      ['impressions', 'bigint'],
      ['clicks', 'bigint'],
      ['ai_sessions', 'bigint'],
    ],
  },
  campaigns: {
    table: 'channel_campaigns_daily',
    keys: [
      ['campaign', 'text'],
      ['source', 'text'],
      ['medium', 'text'],
    ],
    figures: [
      ['sessions', 'bigint'],
      ['users', 'bigint'],
      ['conversions', 'numeric'],
      ['revenue', 'numeric'],
    ],
  },
  content: {
    table: 'channel_content_daily',
    keys: [
      ['page', 'text'],
      ['query', 'text'],
    ],
    figures: [
      ['sessions', 'bigint'],
      ['pageviews', 'bigint'],
      ['conversions', 'numeric'],
      ['revenue', 'numeric'],
      ['clicks', 'bigint'],
      ['impressions', 'bigint'],
      ['position', 'numeric'],
    ],
  },
  audiences: {
    table: 'channel_audiences_daily',
    keys: [['audience', 'text']],
    figures: [
      ['sessions', 'bigint'],
      ['users', 'bigint'],
      ['new_users', 'bigint'],
      ['conversions', 'numeric'],
      ['revenue', 'numeric'],
    ],
  },
} satisfies Record<keyof ChannelData, TableSpec>;

const camel = (column: string) => column.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

/** A table's statement and the row fields its columns come from, made once per table. */
interface TablePlan {
  keyFields: string[];
  figureFields: string[];
  /** Whether a figure is a position (the best, i.e. lowest, wins when rows merge) rather than a count. */
  isPosition: boolean[];
  sql: string;
}

const plans = new Map<TableSpec, TablePlan>();
function planOf(spec: TableSpec): TablePlan {
  let plan = plans.get(spec);
  if (!plan) {
    const columns = ['day', 'brand_id', ...spec.keys.map(([c]) => c), ...spec.figures.map(([c]) => c)];
    const types = ['date', 'bigint', ...spec.keys.map(([, t]) => t), ...spec.figures.map(([, t]) => t)];
    const conflict = ['channel_id', 'day', '(coalesce(brand_id, 0))', ...spec.keys.map(([c]) => c)].join(', ');
    const updates = spec.figures.map(([c]) => `${c} = EXCLUDED.${c}`).join(', ');
    plan = {
      keyFields: spec.keys.map(([c]) => camel(c)),
      figureFields: spec.figures.map(([c]) => camel(c)),
      isPosition: spec.figures.map(([c]) => c === 'position'),
      sql: `INSERT INTO ${spec.table} (organization_id, client_id, channel_id, channel, ${columns.join(', ')})
       SELECT $1, $2, $3, $4, u.* FROM unnest(${types.map((t, j) => `$${j + 5}::${t}[]`).join(', ')}) AS u
       ON CONFLICT (${conflict}) DO UPDATE SET ${updates}`,
    };
    plans.set(spec, plan);
  }
  return plan;
}

interface MergedRow {
  day: string;
  brand: number | null;
  keys: string[];
  figures: (number | null)[];
}

/**
 * Upserts rows into one table, a batch per statement (arrays through unnest): a row with the same
 * key (channel, day, brand, and the table's own key) is replaced. Rows with one key that appear twice
 * in the input are summed first, so a statement never updates a row twice.
 */
async function upsert(m: Query, spec: TableSpec, owner: RowOwner, brands: BrandMap, rows: readonly object[]): Promise<number> {
  const plan = planOf(spec);
  const merged = new Map<string, MergedRow>();
  for (const raw of rows) {
    const r = raw as Record<string, unknown>;
    const brand = brands.brandOf({ brandId: r.brandId as number | null | undefined, domain: r.domain as string | null | undefined });
    const keys = plan.keyFields.map((f) => String(r[f] ?? ''));
    const figures = plan.figureFields.map((f) => (r[f] as number | null | undefined) ?? null);
    // NUL cannot occur in the key's text (PostgreSQL text refuses it), so the joined key is unambiguous.
    const id = `${r.date as string}\u0000${brand ?? ''}\u0000${keys.join('\u0000')}`;
    const seen = merged.get(id);
    if (!seen) merged.set(id, { day: r.date as string, brand, keys, figures });
    else seen.figures = seen.figures.map((v, i) => (v === null ? figures[i] : figures[i] === null ? v : plan.isPosition[i] ? Math.min(v, figures[i]!) : v + figures[i]!));
  }
  const all = [...merged.values()];
  for (let i = 0; i < all.length; i += BATCH) {
    const batch = all.slice(i, i + BATCH);
    const arrays = [batch.map((r) => r.day), batch.map((r) => r.brand), ...plan.keyFields.map((_k, j) => batch.map((r) => r.keys[j])), ...plan.figureFields.map((_f, j) => batch.map((r) => r.figures[j]))];
    await m.query(plan.sql, [owner.organizationId, owner.clientId, owner.channelId, owner.kind, ...arrays]);
  }
  return all.length;
}

/** Writes a window's rows of every kind for a channel; returns how many rows were written. */
export async function writeChannelData(m: Query, owner: RowOwner, brands: BrandMap, data: ChannelData): Promise<number> {
  let n = 0;
  for (const kind of Object.keys(TABLES) as (keyof ChannelData)[]) if (data[kind].length) n += await upsert(m, TABLES[kind], owner, brands, data[kind]);
  return n;
}

/** Deletes a channel's rows of the given days in every table (a source's window is replaced whole). */
export async function clearWindow(m: Query, channelId: number, start: string, end: string): Promise<void> {
  for (const spec of Object.values(TABLES)) await m.query(`DELETE FROM ${spec.table} WHERE channel_id = $1 AND day BETWEEN $2::date AND $3::date`, [channelId, start, end]);
}
