import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { ColumnType } from './upsert';

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

/** The types COPY's binary format is written for here (the others: `copyRows`, text). */
export type BinaryColumnType = Extract<ColumnType, 'bigint' | 'integer' | 'smallint' | 'float8' | 'text' | 'boolean' | 'date' | 'jsonb'>;

const BINARY_TYPES: readonly string[] = ['bigint', 'integer', 'smallint', 'float8', 'text', 'boolean', 'date', 'jsonb'] satisfies BinaryColumnType[];

/** Whether every column's type can be written in COPY's binary format by `copyBinaryRows`. */
export function binaryCopyable(types: readonly ColumnType[]): types is readonly BinaryColumnType[] {
  return types.every((t) => BINARY_TYPES.includes(t));
}

/** The signature, flags and header extension of a binary COPY; its trailer (https://www.postgresql.org/docs/current/sql-copy.html, "Binary Format"). */
const BINARY_HEADER = Buffer.from([0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00, 0, 0, 0, 0, 0, 0, 0, 0]);
const BINARY_TRAILER = Buffer.from([0xff, 0xff]);
/** Days from 1970-01-01 to 2000-01-01, PostgreSQL's epoch for dates. */
const PG_EPOCH_DAYS = 10_957;
const CHUNK = 1 << 16;

/** Rows in COPY's binary format, in chunks of about 64 KB. */
function* binaryChunks(types: readonly BinaryColumnType[], rows: readonly (readonly unknown[])[]): Generator<Buffer> {
  let buf = Buffer.allocUnsafe(CHUNK);
  let at = 0;
  const room = (n: number): Generator<Buffer> | null => (at + n > buf.length ? flush(n) : null);
  function* flush(n: number): Generator<Buffer> {
    if (at) yield buf.subarray(0, at);
    buf = Buffer.allocUnsafe(Math.max(CHUNK, n));
    at = 0;
  }
  const header = room(BINARY_HEADER.length);
  if (header) yield* header;
  at += BINARY_HEADER.copy(buf, at);
  for (const row of rows) {
    if (row.length !== types.length) throw new Error(`COPY: a row of ${row.length} values for ${types.length} columns`);
    // A row's fixed-size part first (count, lengths, numbers); text and JSON checked for room as they come.
    const fixed = room(2 + types.length * 12);
    if (fixed) yield* fixed;
    buf.writeInt16BE(types.length, at);
    at += 2;
    for (let i = 0; i < types.length; i++) {
      const v = row[i];
      if (v === null || v === undefined) {
        buf.writeInt32BE(-1, at);
        at += 4;
        continue;
      }
      switch (types[i]) {
        case 'integer':
          buf.writeInt32BE(4, at);
          buf.writeInt32BE(Number(v), at + 4);
          at += 8;
          break;
        case 'smallint':
          buf.writeInt32BE(2, at);
          buf.writeInt16BE(Number(v), at + 4);
          at += 6;
          break;
        case 'bigint':
          buf.writeInt32BE(8, at);
          if (typeof v === 'number' && Number.isSafeInteger(v)) {
            // Two's complement in two words, without a BigInt per value.
            const high = Math.floor(v / 0x1_0000_0000);
            buf.writeInt32BE(high, at + 4);
            buf.writeUInt32BE(v - high * 0x1_0000_0000, at + 8);
          } else {
            buf.writeBigInt64BE(typeof v === 'bigint' ? v : BigInt(v as number | string), at + 4);
          }
          at += 12;
          break;
        case 'float8':
          if (typeof v !== 'number' || !Number.isFinite(v)) throw new Error(`COPY: ${String(v)} is not a finite number`);
          buf.writeInt32BE(8, at);
          buf.writeDoubleBE(v + 0, at + 4); // -0 as 0, as String(-0) and JSON write it
          at += 12;
          break;
        case 'boolean':
          buf.writeInt32BE(1, at);
          buf[at + 4] = v ? 1 : 0;
          at += 5;
          break;
        case 'date': {
          const day = typeof v === 'string' ? v : (v as Date).toISOString().slice(0, 10);
          const ms = Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)));
          if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(ms)) throw new Error(`COPY: ${day} is not a date`);
          buf.writeInt32BE(4, at);
          buf.writeInt32BE(ms / 86_400_000 - PG_EPOCH_DAYS, at + 4);
          at += 8;
          break;
        }
        case 'text':
        case 'jsonb': {
          const text = typeof v === 'string' ? v : types[i] === 'text' ? String(v) : JSON.stringify(v); // a string for jsonb: its JSON already, as in copyRows
          const version = types[i] === 'jsonb' ? 1 : 0; // jsonb's binary form: a version byte, then the text
          const bytes = Buffer.byteLength(text);
          // Room for this value and the rest of the row's fixed part.
          const more = room(4 + version + bytes + (types.length - i) * 12);
          if (more) yield* more;
          buf.writeInt32BE(version + bytes, at);
          at += 4;
          if (version) buf[at++] = 1;
          at += buf.write(text, at);
          break;
        }
      }
    }
  }
  const trailer = room(BINARY_TRAILER.length);
  if (trailer) yield* trailer;
  at += BINARY_TRAILER.copy(buf, at);
  yield buf.subarray(0, at);
}

/**
 * Writes rows into a table with `COPY … FROM STDIN (FORMAT binary)`: `columns` names each column
 * and its type (see `binaryCopyable`), each row's values in that order (null → NULL; a bigint as a
 * number, a string or a bigint; a date as 'YYYY-MM-DD' or a Date; a jsonb value as what JSON.stringify
 * writes, or a string: its JSON). Less for PostgreSQL to parse than the text format (no number or date parsing) and each
 * float8 sent exactly as it is.
 */
export async function copyBinaryRows(client: PoolClient, table: string, columns: readonly (readonly [string, BinaryColumnType])[], rows: readonly (readonly unknown[])[]): Promise<void> {
  if (!rows.length) return;
  const cols = columns.map(([c]) => `"${c.replace(/"/g, '""')}"`).join(', ');
  await pipeline(Readable.from(binaryChunks(columns.map(([, t]) => t), rows)), client.query(copyFrom(`COPY ${table} (${cols}) FROM STDIN (FORMAT binary)`)));
}
