import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

/** One value in COPY's text format (https://www.postgresql.org/docs/current/sql-copy.html, "Text Format"). */
function textValue(v: unknown): string {
  if (v === null || v === undefined) return '\\N';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error(`COPY: ${v} is not a finite number`);
    return String(v);
  }
  if (typeof v === 'boolean') return v ? 't' : 'f';
  const text = typeof v === 'string' ? v : JSON.stringify(v);
  // Backslash first, then the characters that end a field or a row.
  return /[\\\t\n\r]/.test(text) ? text.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r') : text;
}

/** Rows in COPY's text format, in chunks of about 64 KB. */
function* textChunks(rows: readonly (readonly unknown[])[]): Generator<string> {
  let chunk = '';
  for (const row of rows) {
    let line = '';
    for (let i = 0; i < row.length; i++) line += (i ? '\t' : '') + textValue(row[i]);
    chunk += line + '\n';
    if (chunk.length >= 1 << 16) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

/**
 * Writes rows into a table with `COPY … FROM STDIN` (pg-copy-streams) on the given connection:
 * `table` is its quoted physical name, each row's values in `columns`' order (null: all the table's columns in order) (null → NULL, an
 * object → its JSON, for a jsonb column).
 */
export async function copyRows(client: PoolClient, table: string, columns: readonly string[] | null, rows: readonly (readonly unknown[])[]): Promise<void> {
  if (!rows.length) return;
  const cols = columns ? ` (${columns.map((c) => `"${c.replace(/"/g, '""')}"`).join(', ')})` : '';
  await pipeline(Readable.from(textChunks(rows)), client.query(copyFrom(`COPY ${table}${cols} FROM STDIN`)));
}
