import type { ProjectionContext } from '../projector';
import type { ColumnType } from './column-type';

export type { ColumnType };

/**
 * A read-model table as a projector writes it: its logical name (the projection context maps it to
 * the live or the shadow table), its columns with their types, and the key a row is upserted on.
 */
export interface TableShape<Row extends object> {
  readonly table: string;
  readonly columns: { readonly [K in keyof Row & string]: ColumnType };
  readonly key: readonly (keyof Row & string)[];
}

/** A shape of any row type (a list of tables of several shapes). */
export interface AnyTableShape {
  readonly table: string;
  readonly columns: Readonly<Record<string, ColumnType>>;
  readonly key: readonly string[];
}

/** A table's shape, checked: every key column is a column. */
export function tableShape<Row extends object>(shape: TableShape<Row>): TableShape<Row> {
  for (const k of shape.key) if (!(k in shape.columns)) throw new Error(`${shape.table}: key column ${k} is not a column`);
  if (!shape.key.length) throw new Error(`${shape.table}: a key is needed`);
  return shape;
}

/**
 * On a key already present: `replace` the other columns (or only `columns`), keep the row as it is
 * (`keep`), or `add` the new values to the stored ones (`columns`: the counters; a counter delta).
 */
export type OnConflict<Row extends object> =
  | { readonly kind: 'replace'; readonly columns?: readonly (keyof Row & string)[] }
  | { readonly kind: 'keep' }
  | { readonly kind: 'add'; readonly columns: readonly (keyof Row & string)[] };

/** Built statements, per shape (a shape is a module constant), by table and conflict rule. */
const built = new WeakMap<object, Map<string, string>>();

/**
 * The statement of a batched upsert: every row travels as one JSON parameter (`$1`) read by
 * `json_to_recordset`, so a batch of any size is one statement of one shape, which the live
 * runner prepares once per connection. Deterministic for a (table, shape, conflict) triple.
 * `json`, not `jsonb`: the parameter is read once, row by row, so PostgreSQL need not build the
 * binary jsonb of the whole batch first (half the parse time of a batch; issue 33 part 3). Each
 * column is converted from its JSON text either way, so the rows written are the same.
 */
export function upsertSql<Row extends object>(physicalTable: string, shape: TableShape<Row>, onConflict: OnConflict<Row>): string {
  let ofShape = built.get(shape);
  if (!ofShape) built.set(shape, (ofShape = new Map()));
  const cacheKey = `${physicalTable} ${JSON.stringify(onConflict)}`;
  const cached = ofShape.get(cacheKey);
  if (cached) return cached;
  const columns = Object.keys(shape.columns) as (keyof Row & string)[];
  const q = (c: string) => `"${c.replace(/"/g, '""')}"`;
  const names = columns.map(q).join(', ');
  const definitions = columns.map((c) => `${q(c)} ${shape.columns[c]}`).join(', ');
  let action: string;
  if (onConflict.kind === 'keep') action = 'DO NOTHING';
  else if (onConflict.kind === 'add') action = `DO UPDATE SET ${onConflict.columns.map((c) => `${q(c)} = t.${q(c)} + EXCLUDED.${q(c)}`).join(', ')}`;
  else {
    const replaced = onConflict.columns ?? columns.filter((c) => !shape.key.includes(c));
    action = replaced.length ? `DO UPDATE SET ${replaced.map((c) => `${q(c)} = EXCLUDED.${q(c)}`).join(', ')}` : 'DO NOTHING';
  }
  const text = `INSERT INTO ${physicalTable} AS t (${names})
SELECT ${names} FROM json_to_recordset($1::json) AS x(${definitions})
ON CONFLICT (${shape.key.map(q).join(', ')}) ${action}`;
  ofShape.set(cacheKey, text);
  return text;
}

/**
 * Upserts the rows into the table in one statement, in the batch's transaction. No rows: no
 * statement. Rows with the same key in one batch must be merged first (PostgreSQL refuses to
 * touch a row twice in one statement): fold the batch, then write each row once.
 */
export async function upsertRows<Row extends object>(
  context: Pick<ProjectionContext, 'query' | 'table'>,
  shape: TableShape<Row>,
  rows: readonly Row[],
  onConflict: OnConflict<Row> = { kind: 'replace' },
): Promise<void> {
  if (!rows.length) return;
  await context.query(upsertSql(context.table(shape.table), shape, onConflict), [JSON.stringify(rows)]);
}
