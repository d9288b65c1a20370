import { parseIp } from '../domain/ip-ranges';

/**
 * Rows in PostgreSQL's binary COPY format (https://www.postgresql.org/docs/current/sql-copy.html,
 * "Binary Format"): the server takes each value as it is stored, with no text to parse.
 *
 * A writer fills one chunk at a time: the caller hands the chunk to the COPY (`take()`) once it
 * holds `chunkSize` bytes or more, and the writer starts a new one. A chunk has room for twice
 * that, so a row always fits (the largest is about 30 KB), and grows only for a larger row.
 */
export class BinaryCopyWriter {
  private buf: Buffer;
  private at = 0;

  constructor(readonly chunkSize = 1 << 16) {
    this.buf = Buffer.allocUnsafe(chunkSize * 2);
  }

  /** The bytes written since the last take. */
  get length(): number {
    return this.at;
  }

  /** The file header (signature, flags, no extension): once, before the first row of a COPY. */
  header(): void {
    this.room(19);
    this.buf.write('PGCOPY\n\xff\r\n\0', this.at, 'latin1');
    this.buf.writeInt32BE(0, this.at + 11);
    this.buf.writeInt32BE(0, this.at + 15);
    this.at += 19;
  }

  /** The trailer (-1 fields): once, after the last row. */
  trailer(): void {
    this.room(2);
    this.buf.writeInt16BE(-1, this.at);
    this.at += 2;
  }

  /** Starts a row of `fields` fields; `bytesAtMost` bounds what its values take (the chunk grows to hold it). */
  row(fields: number, bytesAtMost: number): void {
    this.room(2 + bytesAtMost + fields * 4);
    this.buf.writeInt16BE(fields, this.at);
    this.at += 2;
  }

  null(): void {
    this.buf.writeInt32BE(-1, this.at);
    this.at += 4;
  }

  /** UTF-8 text; room for it (3 bytes a UTF-16 unit at most) is the caller's `bytesAtMost`. */
  text(v: string | null): void {
    if (v === null) return this.null();
    const n = this.buf.write(v, this.at + 4, 'utf8');
    this.buf.writeInt32BE(n, this.at);
    this.at += 4 + n;
  }

  /** Bytes encoded once (a constant value). */
  bytes(v: Buffer): void {
    this.buf.writeInt32BE(v.length, this.at);
    v.copy(this.buf, this.at + 4);
    this.at += 4 + v.length;
  }

  int2(v: number): void {
    this.buf.writeInt32BE(2, this.at);
    this.buf.writeInt16BE(v, this.at + 4);
    this.at += 6;
  }

  int4(v: number | null): void {
    if (v === null) return this.null();
    this.buf.writeInt32BE(4, this.at);
    this.buf.writeInt32BE(v, this.at + 4);
    this.at += 8;
  }

  /** A bigint from a JavaScript integer (exact to 2^53). */
  int8(v: number | null): void {
    if (v === null) return this.null();
    this.buf.writeInt32BE(8, this.at);
    const hi = Math.floor(v / 4294967296);
    this.buf.writeInt32BE(hi, this.at + 4);
    this.buf.writeUInt32BE(v - hi * 4294967296, this.at + 8);
    this.at += 12;
  }

  bool(v: boolean | null): void {
    if (v === null) return this.null();
    this.buf.writeInt32BE(1, this.at);
    this.buf[this.at + 4] = v ? 1 : 0;
    this.at += 5;
  }

  /** A timestamptz from epoch milliseconds: microseconds since 2000-01-01 UTC. */
  timestamptz(ms: number): void {
    this.int8((ms - PG_EPOCH_MS) * 1000);
  }

  /** An inet (one host address) from its text form; throws when it is no address. */
  inet(ip: string): void {
    const a = parseIp(ip);
    if (!a) throw new Error(`not an IP address: ${ip}`);
    if (a.kind === 4) {
      this.buf.writeInt32BE(8, this.at);
      this.buf[this.at + 4] = PGSQL_AF_INET;
      this.buf[this.at + 5] = 32;
      this.buf[this.at + 6] = 0;
      this.buf[this.at + 7] = 4;
      this.buf.writeUInt32BE(a.value, this.at + 8);
      this.at += 12;
      return;
    }
    this.buf.writeInt32BE(20, this.at);
    this.buf[this.at + 4] = PGSQL_AF_INET6;
    this.buf[this.at + 5] = 128;
    this.buf[this.at + 6] = 0;
    this.buf[this.at + 7] = 16;
    let v = a.value;
    for (let i = 15; i >= 0; i--) {
      this.buf[this.at + 8 + i] = Number(v & 0xffn);
      v >>= 8n;
    }
    this.at += 24;
  }

  /** The bytes written since the last take, handed over (the writer goes on in a new chunk). */
  take(): Buffer {
    const out = this.buf.subarray(0, this.at);
    this.buf = Buffer.allocUnsafe(this.chunkSize * 2);
    this.at = 0;
    return out;
  }

  /** Makes room for `n` more bytes: a chunk too small for them is replaced by a larger one (what it holds is kept). */
  private room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    const bigger = Buffer.allocUnsafe(this.at + n + this.chunkSize);
    this.buf.copy(bigger, 0, 0, this.at);
    this.buf = bigger;
  }
}

const PG_EPOCH_MS = Date.UTC(2000, 0, 1);
// PostgreSQL's own address family numbers (utils/inet.h): AF_INET + 0 and AF_INET + 1.
const PGSQL_AF_INET = 2;
const PGSQL_AF_INET6 = 3;
