import type { ColumnType, TableShape } from './upsert';

/*
 * The read side of a table shape: the projector that writes a table declares its shape once, and
 * whoever reads the table (its own projector, the library's queries) takes the column list and
 * the row mapping from it, so a column added, renamed or retyped is changed in one place (and the
 * shape is checked against the migrations by a test).
 */

const PLAIN = /^[a-z_][a-z0-9_]*$/;
const quoted = (c: string) => (PLAIN.test(c) ? c : `"${c.replace(/"/g, '""')}"`);

/** The SELECT list of a shape's columns: all, in the shape's order, or the ones named (in their order). */
export function columnList<Row extends object>(shape: TableShape<Row>, columns?: readonly (keyof Row & string)[]): string {
  const names = columns ?? (Object.keys(shape.columns) as (keyof Row & string)[]);
  for (const c of names) if (!(c in shape.columns)) throw new Error(`${shape.table}: ${c} is not a column`);
  return names.map(quoted).join(', ');
}

const day = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/** One value as node-postgres gives it back, as the projector wrote it (its JSON form). */
function fromSql(type: ColumnType, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'bigint':
    case 'numeric':
    case 'integer':
    case 'smallint':
    case 'float8':
      // bigint and numeric come back as text (they may not fit a double; ours are ids and counts that do).
      return typeof value === 'number' ? value : Number(value);
    case 'timestamptz':
      return (value instanceof Date ? value : new Date(String(value))).toISOString();
    case 'date':
      // node-postgres makes a date a local midnight.
      return value instanceof Date ? day(value) : String(value);
    default:
      return value;
  }
}

/**
 * The mapping of a row read with `columnList(shape, columns)` to the shape's row type, every value
 * in the form the projector wrote it: ids and counts as numbers (bigint comes back as text),
 * times as ISO strings (timestamptz comes back as a Date), days as `YYYY-MM-DD`; null stays null.
 */
export function rowReader<Row extends object, K extends keyof Row & string = keyof Row & string>(shape: TableShape<Row>, columns?: readonly K[]): (row: Record<string, unknown>) => Pick<Row, K> {
  const names = (columns ?? Object.keys(shape.columns)) as K[];
  const types = names.map((c) => {
    const type = shape.columns[c];
    if (!type) throw new Error(`${shape.table}: ${c} is not a column`);
    return type;
  });
  return (row) => {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) out[names[i]] = fromSql(types[i], row[names[i]]);
    return out as Pick<Row, K>;
  };
}
