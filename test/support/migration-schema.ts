import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The tables the migrations leave behind, read from their SQL without a database: every
 * migration's `up` runs against a runner that only records its statements (ours only ever call
 * `query`), and the statements are replayed on a model of the schema: CREATE TABLE, ALTER TABLE
 * (add, drop, rename and retype columns; add and drop keys), unique indexes, DROP TABLE. A
 * statement on a table of interest that the model does not understand is an error, never skipped.
 */

export interface MigratedTable {
  /** Column name → type as written (normalised: `double precision` is `float8`, `int8` is `bigint`, …). */
  columns: Map<string, string>;
  /** The primary key's columns, sorted (null: none). */
  primaryKey: string[] | null;
  /** Unique constraints and (whole-table) unique indexes by name: their columns, sorted. */
  unique: Map<string, string[]>;
}

export type MigrationClass = new () => MigrationInterface;

const TYPE_ALIASES: Record<string, string> = {
  int8: 'bigint',
  int: 'integer',
  int4: 'integer',
  int2: 'smallint',
  'double precision': 'float8',
  float4: 'real',
  bool: 'boolean',
  'timestamp with time zone': 'timestamptz',
  'timestamp without time zone': 'timestamp',
  'character varying': 'varchar',
  decimal: 'numeric',
};

/** Words that end a column's type in a column definition. */
const CONSTRAINT_WORDS = new Set(['not', 'null', 'default', 'primary', 'references', 'check', 'unique', 'generated', 'collate', 'constraint']);

export function normaliseType(type: string): string {
  const t = type.toLowerCase().replace(/\s+/g, ' ').trim();
  const array = t.endsWith('[]');
  const base = (array ? t.slice(0, -2) : t).replace(/\s*\(.*\)$/, '').trim();
  return `${TYPE_ALIASES[base] ?? base}${array ? '[]' : ''}`;
}

/** Splits at the commas outside parentheses and quotes. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = null;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(text.slice(start).trim());
  return parts.filter((p) => p.length > 0);
}

/** The text between the parenthesis at `open` and its match. */
function parenthesised(text: string, open: number): { inner: string; end: number } {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return { inner: text.slice(open + 1, i), end: i };
  }
  throw new Error(`unbalanced parentheses: ${text}`);
}

const columnsOf = (list: string) => splitTopLevel(list).map((c) => c.replace(/"/g, '').split(/\s+/)[0].toLowerCase()).sort();

function columnDefinition(text: string): { name: string; type: string; primaryKey: boolean; unique: boolean } {
  const words = text.split(/\s+/);
  const name = words[0].replace(/"/g, '').toLowerCase();
  const typeWords: string[] = [];
  let k = 1;
  for (; k < words.length && !CONSTRAINT_WORDS.has(words[k].toLowerCase()); k++) typeWords.push(words[k]);
  if (!typeWords.length) throw new Error(`no type in column definition: ${text}`);
  const rest = words.slice(k).join(' ').toLowerCase();
  return { name, type: normaliseType(typeWords.join(' ')), primaryKey: /\bprimary key\b/.test(rest), unique: /(^|\s)unique\b/.test(rest) };
}

/** Replays migration statements on a model of the schema (see the file's comment). */
export class SchemaModel {
  readonly tables = new Map<string, MigratedTable>();

  /** `tracked`: the tables whose every statement must be understood. */
  constructor(private readonly tracked: ReadonlySet<string>) {}

  apply(statement: string): void {
    const sql = statement
      .replace(/--[^\n]*/g, '')
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/;$/, '');
    let m: RegExpExecArray | null;
    if ((m = /^CREATE TABLE (?:IF NOT EXISTS )?("?[\w.]+"?) ?\(/i.exec(sql))) return this.createTable(m[1].replace(/"/g, '').toLowerCase(), sql, m[0].length - 1);
    if ((m = /^ALTER TABLE (?:IF EXISTS )?(?:ONLY )?("?\w+"?) (.*)$/i.exec(sql))) return this.alterTable(m[1].replace(/"/g, '').toLowerCase(), m[2]);
    if ((m = /^CREATE UNIQUE INDEX (?:CONCURRENTLY )?(?:IF NOT EXISTS )?(\w+) ON (?:ONLY )?(\w+)(?: USING \w+)? ?\((.*)\)(.*)$/i.exec(sql))) {
      const table = this.tables.get(m[2].toLowerCase());
      // A partial index (WHERE …) cannot back ON CONFLICT without the same predicate: not a key.
      if (table && !/\bwhere\b/i.test(m[4])) table.unique.set(m[1].toLowerCase(), columnsOf(m[3]));
      return;
    }
    if ((m = /^DROP INDEX (?:CONCURRENTLY )?(?:IF EXISTS )?(\w+)/i.exec(sql))) {
      for (const t of this.tables.values()) t.unique.delete(m[1].toLowerCase());
      return;
    }
    if ((m = /^DROP TABLE (?:IF EXISTS )?(.*?)(?: CASCADE| RESTRICT)?$/i.exec(sql))) {
      for (const name of m[1].split(',')) this.tables.delete(name.trim().replace(/"/g, '').toLowerCase());
      return;
    }
    // Anything else (indexes, sequences, functions, data) does not change a table's columns or keys,
    // unless it names a tracked table in a way this model does not know.
    for (const name of this.tracked) {
      if (new RegExp(`^(ALTER|CREATE|DROP)\\b[^(]*\\b${name}\\b`, 'i').test(sql) && !/^(CREATE|DROP) (INDEX|TRIGGER|POLICY|STATISTICS)\b/i.test(sql)) {
        throw new Error(`a migration statement on ${name} is not understood: ${sql.slice(0, 200)}`);
      }
    }
  }

  private createTable(name: string, sql: string, open: number): void {
    const { inner, end } = parenthesised(sql, open);
    const tail = sql.slice(end + 1).trim();
    const table: MigratedTable = { columns: new Map(), primaryKey: null, unique: new Map() };
    if (/^LIKE\b/i.test(inner.trim())) {
      if (this.tracked.has(name)) throw new Error(`${name} is created LIKE another table: not understood`);
      return;
    }
    for (const element of splitTopLevel(inner)) {
      let m: RegExpExecArray | null;
      const e = element.replace(/^CONSTRAINT \w+ /i, '');
      const named = /^CONSTRAINT (\w+) /i.exec(element)?.[1]?.toLowerCase();
      if ((m = /^PRIMARY KEY ?\((.*)\)$/i.exec(e))) table.primaryKey = columnsOf(m[1]);
      else if ((m = /^UNIQUE (?:NULLS NOT DISTINCT )?\((.*)\)$/i.exec(e))) table.unique.set(named ?? `${name}_${columnsOf(m[1]).join('_')}_key`, columnsOf(m[1]));
      else if (/^(CHECK|FOREIGN KEY|EXCLUDE)\b/i.test(e)) continue;
      else {
        const column = columnDefinition(element);
        table.columns.set(column.name, column.type);
        if (column.primaryKey) table.primaryKey = [column.name];
        if (column.unique) table.unique.set(`${name}_${column.name}_key`, [column.name]);
      }
    }
    if (tail && !/^PARTITION BY\b/i.test(tail) && this.tracked.has(name)) throw new Error(`${name}: "${tail}" after the columns is not understood`);
    this.tables.set(name, table);
  }

  private alterTable(name: string, actions: string): void {
    const table = this.tables.get(name);
    let m: RegExpExecArray | null;
    if ((m = /^RENAME TO (\w+)$/i.exec(actions))) {
      if (table) {
        this.tables.delete(name);
        this.tables.set(m[1].toLowerCase(), table);
      }
      return;
    }
    for (const action of splitTopLevel(actions)) {
      if (!table) {
        if (this.tracked.has(name)) throw new Error(`ALTER TABLE ${name} before it is created`);
        return;
      }
      if ((m = /^ADD (?:COLUMN )?(?:IF NOT EXISTS )?(?!CONSTRAINT |PRIMARY |UNIQUE |CHECK |FOREIGN )(.*)$/i.exec(action))) {
        const column = columnDefinition(m[1]);
        table.columns.set(column.name, column.type);
        if (column.primaryKey) table.primaryKey = [column.name];
      } else if ((m = /^DROP (?:COLUMN )?(?:IF EXISTS )?(?!CONSTRAINT )("?\w+"?)(?: CASCADE)?$/i.exec(action))) {
        const column = m[1].replace(/"/g, '').toLowerCase();
        table.columns.delete(column);
        if (table.primaryKey?.includes(column)) table.primaryKey = null;
        for (const [k, cols] of table.unique) if (cols.includes(column)) table.unique.delete(k);
      } else if ((m = /^RENAME (?:COLUMN )?(\w+) TO (\w+)$/i.exec(action))) {
        const [from, to] = [m[1].toLowerCase(), m[2].toLowerCase()];
        const type = table.columns.get(from);
        if (type === undefined) throw new Error(`${name}: no column ${from} to rename`);
        table.columns.delete(from);
        table.columns.set(to, type);
        const rename = (cols: string[]) => cols.map((c) => (c === from ? to : c)).sort();
        if (table.primaryKey) table.primaryKey = rename(table.primaryKey);
        for (const [k, cols] of table.unique) table.unique.set(k, rename(cols));
      } else if ((m = /^ALTER (?:COLUMN )?(\w+) (?:SET DATA )?TYPE (.*?)(?: USING .*)?$/i.exec(action))) {
        table.columns.set(m[1].toLowerCase(), normaliseType(m[2]));
      } else if (/^ALTER (?:COLUMN )?\w+ (SET|DROP) (DEFAULT|NOT NULL)\b/i.test(action)) {
        continue;
      } else if ((m = /^ADD (?:CONSTRAINT (\w+) )?PRIMARY KEY ?\((.*)\)$/i.exec(action))) {
        table.primaryKey = columnsOf(m[2]);
      } else if ((m = /^ADD (?:CONSTRAINT (\w+) )?UNIQUE (?:NULLS NOT DISTINCT )?\((.*)\)$/i.exec(action))) {
        table.unique.set((m[1] ?? `${name}_${columnsOf(m[2]).join('_')}_key`).toLowerCase(), columnsOf(m[2]));
      } else if (/^ADD (?:CONSTRAINT \w+ )?(CHECK|FOREIGN KEY)\b/i.test(action)) {
        continue;
      } else if ((m = /^DROP CONSTRAINT (?:IF EXISTS )?(\w+)(?: CASCADE)?$/i.exec(action))) {
        const constraint = m[1].toLowerCase();
        if (constraint === `${name}_pkey`) table.primaryKey = null;
        table.unique.delete(constraint);
      } else if (this.tracked.has(name)) {
        throw new Error(`ALTER TABLE ${name} ${action}: not understood`);
      }
    }
  }
}

/** Every statement `up` runs, recorded (the migrations only call `query`, and never read what it returns). */
export async function statementsOf(migration: MigrationClass): Promise<string[]> {
  const statements: string[] = [];
  const runner = {
    query: async (sql: string) => {
      statements.push(sql);
      return [];
    },
  } as unknown as QueryRunner;
  await new migration().up(runner);
  return statements;
}

/** The tables after every migration, in order; `tracked` tables must be understood statement by statement. */
export async function migratedTables(migrations: readonly MigrationClass[], tracked: ReadonlySet<string>): Promise<Map<string, MigratedTable>> {
  const model = new SchemaModel(tracked);
  for (const migration of migrations) for (const statement of await statementsOf(migration)) model.apply(statement);
  return model.tables;
}

/** A shape as the projection kit declares it (any row type). */
export interface ShapeLike {
  readonly table: string;
  readonly columns: Readonly<Record<string, string>>;
  readonly key: readonly string[];
}

/** How a shape differs from its table: each missing, extra or retyped column, and a key no unique index backs. Empty: they agree. */
export function shapeProblems(shape: ShapeLike, tables: ReadonlyMap<string, MigratedTable>): string[] {
  const table = tables.get(shape.table);
  if (!table) return [`${shape.table}: no migration creates it`];
  const problems: string[] = [];
  for (const [column, type] of Object.entries(shape.columns)) {
    const migrated = table.columns.get(column);
    if (migrated === undefined) problems.push(`${shape.table}.${column}: in the shape, not in the table`);
    else if (normaliseType(type) !== migrated) problems.push(`${shape.table}.${column}: ${type} in the shape, ${migrated} in the table`);
  }
  for (const column of table.columns.keys()) if (!(column in shape.columns)) problems.push(`${shape.table}.${column}: in the table, not in the shape`);
  const key = [...shape.key].sort().join(',');
  const keys = [table.primaryKey, ...table.unique.values()].filter((k): k is string[] => k !== null).map((k) => k.join(','));
  if (!keys.includes(key)) problems.push(`${shape.table}: key (${shape.key.join(', ')}) is neither its primary key nor a unique index (${keys.map((k) => `(${k})`).join(' ') || 'none'})`);
  return problems;
}
