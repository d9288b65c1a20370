import { parseIp } from '../domain/ip-ranges';

/** Buffer's own UTF-8 writer (what `buf.write(text, offset, 'utf8')` ends in, without its argument juggling). */
type Utf8Writer = Buffer & { utf8Write(text: string, offset: number): number };

/**
 * Rows in PostgreSQL's binary COPY format (https://www.postgresql.org/docs/current/sql-copy.html,
 * "Binary Format"): the server takes each value as it is stored, with no text to parse.
 *
 * A writer fills one chunk at a time: the caller hands the chunk to the COPY (`take()`) once it
 * holds `chunkSize` bytes or more, and the writer starts a new one. A chunk has room for twice
 * that, so a row always fits (the largest is about 30 KB), and grows only for a larger row.
 * Numbers are written byte by byte: the Buffer methods' checks cost more than the writing.
 */
export class BinaryCopyWriter {
  private buf: Utf8Writer;
  private at = 0;

  constructor(readonly chunkSize = 1 << 16) {
    this.buf = Buffer.allocUnsafe(chunkSize * 2) as Utf8Writer;
  }

  /** The bytes written since the last take. */
  get length(): number {
    return this.at;
  }

  /** The file header (signature, flags, no extension): once, before the first row of a COPY. */
  header(): void {
    this.room(19);
    this.buf.write('PGCOPY\n\xff\r\n\0', this.at, 'latin1');
    this.at += 11;
    this.i32(0);
    this.i32(0);
  }

  /** The trailer (-1 fields): once, after the last row. */
  trailer(): void {
    this.room(2);
    this.i16(-1);
  }

  /** Starts a row of `fields` fields; `bytesAtMost` bounds what its values take (the chunk grows to hold it). */
  row(fields: number, bytesAtMost: number): void {
    this.room(2 + bytesAtMost + fields * 4);
    this.i16(fields);
  }

  null(): void {
    this.i32(-1);
  }

  /** UTF-8 text; room for it (3 bytes a UTF-16 unit at most) is the caller's `bytesAtMost`. */
  text(v: string | null): void {
    if (v === null) return this.null();
    const start = this.at;
    const n = this.buf.utf8Write(v, start + 4);
    this.i32(n);
    this.at = start + 4 + n;
  }

  int2(v: number): void {
    this.i32(2);
    this.i16(v);
  }

  int4(v: number | null): void {
    if (v === null) return this.null();
    this.i32(4);
    this.i32(v);
  }

  /** A bigint from a JavaScript integer (exact to 2^53). */
  int8(v: number | null): void {
    if (v === null) return this.null();
    this.i32(8);
    const hi = Math.floor(v / 4294967296);
    this.i32(hi);
    this.i32(v - hi * 4294967296);
  }

  bool(v: boolean | null): void {
    if (v === null) return this.null();
    this.i32(1);
    this.buf[this.at++] = v ? 1 : 0;
  }

  /** A timestamptz from epoch milliseconds: microseconds since 2000-01-01 UTC. */
  timestamptz(ms: number): void {
    this.int8((ms - PG_EPOCH_MS) * 1000);
  }

  /** An inet (one host address) from its text form; throws when it is no address. */
  inet(ip: string): void {
    const a = parseIp(ip);
    if (!a) throw new Error(`not an IP address: ${ip}`);
    const b = this.buf;
    if (a.kind === 4) {
      this.i32(8);
      b[this.at] = PGSQL_AF_INET;
      b[this.at + 1] = 32;
      b[this.at + 2] = 0;
      b[this.at + 3] = 4;
      this.at += 4;
      this.i32(a.value);
      return;
    }
    this.i32(20);
    b[this.at] = PGSQL_AF_INET6;
    b[this.at + 1] = 128;
    b[this.at + 2] = 0;
    b[this.at + 3] = 16;
    let v = a.value;
    for (let i = 19; i >= 4; i--) {
      b[this.at + i] = Number(v & 0xffn);
      v >>= 8n;
    }
    this.at += 20;
  }

  /** The bytes written since the last take, handed over (the writer goes on in a new chunk). */
  take(): Buffer {
    const out = this.buf.subarray(0, this.at);
    this.buf = Buffer.allocUnsafe(this.chunkSize * 2) as Utf8Writer;
    this.at = 0;
    return out;
  }

  /** A 32-bit integer, big-endian (signed or not: the same bytes). */
  private i32(v: number): void {
    const b = this.buf;
    const at = this.at;
    b[at] = v >>> 24;
    b[at + 1] = v >>> 16;
    b[at + 2] = v >>> 8;
    b[at + 3] = v;
    this.at = at + 4;
  }

  private i16(v: number): void {
    this.buf[this.at] = v >>> 8;
    this.buf[this.at + 1] = v;
    this.at += 2;
  }

  /** Makes room for `n` more bytes: a chunk too small for them is replaced by a larger one (what it holds is kept). */
  private room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    const bigger = Buffer.allocUnsafe(this.at + n + this.chunkSize) as Utf8Writer;
    this.buf.copy(bigger, 0, 0, this.at);
    this.buf = bigger;
  }
}

const PG_EPOCH_MS = Date.UTC(2000, 0, 1);
// PostgreSQL's own address family numbers (utils/inet.h): AF_INET + 0 and AF_INET + 1.
const PGSQL_AF_INET = 2;
const PGSQL_AF_INET6 = 3;
