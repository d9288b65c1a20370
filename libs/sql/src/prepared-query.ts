import { createHash } from 'node:crypto';
import type { Pool, PoolClient, QueryResultRow } from 'pg';
import type { DataSource } from 'typeorm';

/**
 * At most this many distinct statements get a name (per process, so per pooled connection); any
 * further text runs unnamed. A named statement is parsed once per connection and, once PostgreSQL
 * finds its generic plan as good as the custom ones, planned once too; the cap bounds what every
 * connection keeps.
 */
export const MAX_NAMED_STATEMENTS = 256;

const names = new Map<string, string>();

/** The statement name for a text (stable across processes: a hash of the text), or undefined past the cap. */
export function statementName(text: string): string | undefined {
  let name = names.get(text);
  if (name === undefined && names.size < MAX_NAMED_STATEMENTS) {
    name = `q_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    names.set(text, name);
  }
  return name;
}

/** The pg pool under a TypeORM PostgreSQL DataSource. */
export function poolOf(dataSource: DataSource): Pool {
  const pool = (dataSource.driver as unknown as { master?: Pool }).master;
  if (!pool) throw new Error('the DataSource is not an initialised PostgreSQL data source');
  return pool;
}

/**
 * Runs a hot statement as a named (prepared) statement on a pool or on one connection (inside its
 * transaction). For statements whose text comes from a bounded set of shapes (filters present or
 * not, a sort column) with every value a parameter.
 */
export async function preparedQuery<R extends QueryResultRow>(pool: Pool | PoolClient, text: string, values: unknown[]): Promise<R[]> {
  const name = statementName(text);
  const result = await pool.query<R>(name === undefined ? { text, values } : { name, text, values });
  return result.rows;
}

/**
 * Collects a statement's values as it is written: `param(v)` appends v and returns its placeholder
 * (`$n`), so the text has a placeholder for every value and the shapes stay few.
 */
export function sqlParams(...first: unknown[]): { params: unknown[]; param: (value: unknown) => string } {
  const params = [...first];
  return {
    params,
    param(value: unknown): string {
      params.push(value);
      return `$${params.length}`;
    },
  };
}
