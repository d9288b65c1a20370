import { AI_REFERRERS } from './classify';
import { parseTimeLocal } from './log-formats';
import { EARLIEST, LIMITS, MAX_FUTURE_MS, parseHost, type Visit } from './visit';

const SPACE = 32;
const QUOTE = 34;
const BACKSLASH = 92;
const OPEN = 91; // [
const CLOSE = 93; // ]
const COLON = 58;
const DOT = 46;
const UTM = Buffer.from('utm_source=', 'latin1');
/** User agents whose verdict is remembered (by their bytes) at most. */
const AGENTS = 10_000;

/** A host's length, first and last byte (lower case) in one number. */
const hostKey = (length: number, first: number, last: number) => length * 65536 + first * 256 + last;
/** The keys of the hosts of AI assistants (AI_REFERRERS): a referer whose host has none of them comes from none. */
const AI_HOST_KEYS = new Set(AI_REFERRERS.flatMap((r) => r.hosts.map((h) => hostKey(h.length, h.charCodeAt(0), h.charCodeAt(h.length - 1)))));
/**
 * A user agent's key: its length and five of its bytes mixed into a small integer (V8 hashes a small
 * integer key at once; a larger number is a heap number, allocated and hashed by its bits). A key
 * shared by two user agents keeps the last one's verdict: the bytes are compared in full.
 */
function agentKey(b: Buffer, from: number, n: number): number {
  if (n < 8) return n;
  let h = Math.imul(n, 0x9e3779b1) ^ b[from + (n >> 1)];
  h = Math.imul(h, 31) ^ b[from + (n >> 2)];
  h = Math.imul(h, 31) ^ b[from + ((3 * n) >> 2)];
  h = Math.imul(h, 31) ^ b[from + n - 2];
  h = Math.imul(h, 31) ^ b[from + n - 5];
  return h & 0x3fffffff;
}
const lower = (c: number) => (c >= 65 && c <= 90 ? c + 32 : c);

/**
 * The common nginx/apache combined line (`ip - user [time] "request" status bytes "referer" "user
 * agent"`, the site's host given) read from its bytes, without making a string of it: most lines of
 * a log are people and other bots, counted and dropped, and only their user agent (and referer)
 * must become text to be judged.
 *
 * A line is read here only when it is plain: printable ASCII (0x20-0x7E) without a backslash, a
 * client address that is a dotted quad in normal form (no vhost prefix, no IPv6) and a
 * `dd/Mon/yyyy:hh:mm:ss +zzzz` time. Such a line has one way to match the combined expression
 * (every quoted field ends at the next quote; no field has an escape to undo), and `read` says yes
 * only when every check the text parser makes passes; its fields are then exactly those the text
 * parser gives (`logParser('nginx' | 'apache').parse`, proved against it in
 * plain-combined.unit.spec.ts). Any other line (no, or not plain) is for the text parser, which
 * gives the same visit or the reason it refuses the line.
 */
export class PlainCombinedReader {
  /** The fields of the last line read (`read` said yes): offsets into its buffer, and its values. */
  at = 0;
  status = 0;
  bytes: number | null = null;
  private buf: Buffer = Buffer.alloc(0);
  private ipStart = 0;
  private ipEnd = 0;
  private methodStart = 0;
  private methodEnd = 0;
  private pathStart = 0;
  private pathEnd = 0;
  /** Where the query of the path begins (its `?`), or -1. */
  private query = -1;
  private refererStart = 0;
  private refererEnd = 0;
  private agentStart = 0;
  private agentEnd = 0;
  /** The user agent's key (agentKey), and what is remembered of it (null: nothing). */
  private agentKey = 0;
  private agent: { bytes: Uint8Array; value: boolean } | null = null;
  /** Verdicts on user agents, by their key (the bytes kept to tell two apart: one user agent a key). */
  private readonly agents = new Map<number, { bytes: Uint8Array; value: boolean }>();
  /** The last minute read (`dd/Mon/yyyy:hh:mm` and ` +zzzz`, 23 bytes) and its instant (null: no real instant). */
  private readonly minute = Buffer.alloc(23);
  private minuteKnown = false;
  private minuteValue: number | null = null;

  private constructor(private readonly host: string) {}

  /** A reader for lines of a site whose host is given, or null when the host is none (every line is then refused, by the text parser). */
  static forHost(host: string | undefined): PlainCombinedReader | null {
    if (host === undefined || host === '' || host === '-') return null;
    const h = parseHost(host);
    return 'problem' in h ? null : new PlainCombinedReader(h.host);
  }

  /**
   * Reads `buf[start, end)` (one line, without its line end): true when it is plain and a visit the
   * text parser accepts at `now` (its fields are then at hand), false otherwise (the text parser decides).
   */
  read(buf: Buffer, start: number, end: number, now: number): boolean {
    // The client address: a dotted quad in normal form (four decimals 0-255, no leading zeros), as `dottedQuad`.
    let i = start;
    let part = 0;
    let digits = 0;
    let dots = 0;
    for (; i < end; i++) {
      const c = buf[i];
      if (c === DOT) {
        if (digits === 0 || dots === 3) return false;
        part = 0;
        digits = 0;
        dots++;
      } else if (c >= 48 && c <= 57) {
        if (digits > 0 && part === 0) return false;
        part = part * 10 + (c - 48);
        if (++digits > 3 || part > 255) return false;
      } else break;
    }
    if (dots !== 3 || digits === 0 || i - start > 15 || buf[i] !== SPACE) return false;
    this.ipStart = start;
    this.ipEnd = i;
    // Two fields without spaces (ident, user).
    i = this.word(buf, i + 1, end);
    if (i < 0) return false;
    i = this.word(buf, i + 1, end);
    if (i < 0 || buf[i + 1] !== OPEN) return false;
    // [dd/Mon/yyyy:hh:mm:ss +zzzz]
    const t = i + 2;
    if (t + 27 > end || buf[t + 26] !== CLOSE || buf[t + 17] !== COLON || buf[t + 20] !== SPACE) return false;
    // A minute as the last line's (checked then) is only compared; another is checked. (Compared
    // here, from its minute backwards: 23 bytes are fewer than the cost of two calls of Buffer.compare.)
    const sameMinute = this.minuteKnown && this.isLastMinute(buf, t);
    if (!sameMinute) {
      for (let k = t; k < t + 26; k++) {
        const c = buf[k];
        if (c < 0x20 || c > 0x7e || c === BACKSLASH || c === CLOSE) return false;
      }
    }
    const s1 = buf[t + 18] - 48;
    const s2 = buf[t + 19] - 48;
    if (s1 < 0 || s1 > 5 || s2 < 0 || s2 > 9) return false;
    if (!sameMinute) {
      buf.copy(this.minute, 0, t, t + 17);
      buf.copy(this.minute, 17, t + 20, t + 26);
      this.minuteKnown = true;
      this.minuteValue = parseTimeLocal(`${buf.toString('latin1', t, t + 17)}:00${buf.toString('latin1', t + 20, t + 26)}`);
    }
    if (this.minuteValue === null) return false;
    const at = this.minuteValue + (s1 * 10 + s2) * 1000;
    if (at < EARLIEST || at > now + MAX_FUTURE_MS) return false;
    this.at = at;
    i = t + 27;
    if (buf[i] !== SPACE || buf[i + 1] !== QUOTE) return false;
    // "METHOD path [protocol]": a method of 1-16 capitals, a path beginning with / (or *), a protocol without spaces.
    i += 2;
    this.methodStart = i;
    while (i < end && buf[i] >= 65 && buf[i] <= 90) i++;
    if (i === this.methodStart || i - this.methodStart > 16 || buf[i] !== SPACE) return false;
    this.methodEnd = i++;
    this.pathStart = i;
    this.query = -1;
    for (; i < end; i++) {
      const c = buf[i];
      if (c === SPACE || c === QUOTE) break;
      if (c < 0x20 || c > 0x7e || c === BACKSLASH) return false;
      if (c === 63 && this.query < 0) this.query = i;
    }
    this.pathEnd = i;
    const pathLength = i - this.pathStart;
    if (pathLength === 0 || pathLength > LIMITS.path) return false;
    if (buf[this.pathStart] !== 47 && !(pathLength === 1 && buf[this.pathStart] === 42)) return false;
    if (buf[i] === SPACE) {
      for (i++; i < end && buf[i] !== QUOTE; i++) {
        const c = buf[i];
        if (c <= SPACE || c > 0x7e || c === BACKSLASH) return false;
      }
    }
    if (buf[i] !== QUOTE || buf[i + 1] !== SPACE) return false;
    // Status (three digits, 100-599) and bytes (digits or -).
    i += 2;
    if (i + 4 > end) return false;
    const d0 = buf[i] - 48;
    const d1 = buf[i + 1] - 48;
    const d2 = buf[i + 2] - 48;
    if (d0 < 1 || d0 > 5 || d1 < 0 || d1 > 9 || d2 < 0 || d2 > 9 || buf[i + 3] !== SPACE) return false;
    this.status = d0 * 100 + d1 * 10 + d2;
    i += 4;
    if (buf[i] === 45) {
      this.bytes = null;
      i++;
    } else {
      let n = 0;
      const from = i;
      // At most 15 digits: every such count is exact and within MAX_BYTES.
      for (; i < end && buf[i] >= 48 && buf[i] <= 57; i++) n = n * 10 + (buf[i] - 48);
      if (i === from || i - from > 15) return false;
      this.bytes = n;
    }
    if (buf[i] !== SPACE || buf[i + 1] !== QUOTE) return false;
    // "referer" "user agent", then anything printable.
    this.refererStart = i + 2;
    i = this.quoted(buf, this.refererStart, end);
    if (i < 0 || i - this.refererStart > LIMITS.referer || buf[i + 1] !== SPACE || buf[i + 2] !== QUOTE) return false;
    this.refererEnd = i;
    // The user agent: a remembered one (its bytes plain when remembered) is only compared; another is checked.
    const from = i + 3;
    const to = buf.indexOf(QUOTE, from);
    if (to < 0 || to >= end || to - from > LIMITS.userAgent) return false;
    this.agentStart = from;
    this.agentEnd = to;
    const n = to - from;
    const key = agentKey(buf, from, n);
    const hit = this.agents.get(key);
    let known = false;
    // (Compared here from its end, where user agents differ most: a call of Buffer.compare, checking
    // its arguments, cost more than the loop over a hundred bytes.)
    if (hit !== undefined && hit.bytes.length === n) {
      const h = hit.bytes;
      let k = n - 1;
      while (k >= 0 && buf[from + k] === h[k]) k--;
      known = k < 0;
    }
    if (known) this.agent = hit!;
    else {
      for (let k = from; k < to; k++) {
        const c = buf[k];
        if (c < 0x20 || c > 0x7e || c === BACKSLASH) return false;
      }
      this.agent = null;
    }
    this.agentKey = key;
    i = to;
    for (i++; i < end; i++) {
      const c = buf[i];
      if (c < 0x20 || c > 0x7e) return false;
    }
    this.buf = buf;
    return true;
  }

  /** The user agent of the line read (`-` is none: ''). */
  userAgent(): string {
    if (this.agentEnd - this.agentStart === 1 && this.buf[this.agentStart] === 45) return '';
    return this.buf.toString('latin1', this.agentStart, this.agentEnd);
  }

  /** The referer of the line read, or null (`-` or empty). */
  referer(): string | null {
    const n = this.refererEnd - this.refererStart;
    if (n === 0 || (n === 1 && this.buf[this.refererStart] === 45)) return null;
    return this.buf.toString('latin1', this.refererStart, this.refererEnd);
  }

  /**
   * `judge(userAgent())`, remembered by the user agent's bytes: a log repeats a few thousand user
   * agents, and a verdict remembered makes no text. `judge` must depend on the user agent alone
   * (the same for the reader's life).
   */
  agentVerdict(judge: (userAgent: string) => boolean): boolean {
    if (this.agent) return this.agent.value;
    const value = judge(this.userAgent());
    if (this.agents.size >= AGENTS) this.agents.clear();
    this.agents.set(this.agentKey, (this.agent = { bytes: Uint8Array.prototype.slice.call(this.buf, this.agentStart, this.agentEnd), value }));
    return value;
  }

  /**
   * Whether the referer may come from an AI assistant: false when `aiReferralSource` finds none for
   * sure (no `scheme://host`, or a host, with or without `www.`, of a length and first and last
   * letter no assistant's host has).
   */
  refererMayBeAi(): boolean {
    const b = this.buf;
    const end = this.refererEnd;
    // The scheme ends at the first colon, which must begin `://`.
    let i = this.refererStart;
    while (i < end && b[i] !== COLON) i++;
    if (i === this.refererStart || i + 3 > end || b[i + 1] !== 47 || b[i + 2] !== 47) return false;
    const from = i + 3;
    for (i = from; i < end; i++) {
      const c = b[i];
      if (c === 47 || c === COLON || c === 63 || c === 35) break;
    }
    if (i === from) return false;
    const last = lower(b[i - 1]);
    if (AI_HOST_KEYS.has(hostKey(i - from, lower(b[from]), last))) return true;
    const www = i - from > 4 && lower(b[from]) === 119 && lower(b[from + 1]) === 119 && lower(b[from + 2]) === 119 && b[from + 3] === DOT;
    return www && AI_HOST_KEYS.has(hostKey(i - from - 4, lower(b[from + 4]), last));
  }

  /** Whether the query of the path holds `utm_source=` (without it, `utmAiSource` finds nothing). */
  queryNamesUtm(): boolean {
    if (this.query < 0) return false;
    const b = this.buf;
    for (let i = this.query + 1, last = this.pathEnd - UTM.length; i <= last; i++) {
      let k = 0;
      while (k < UTM.length && b[i + k] === UTM[k]) k++;
      if (k === UTM.length) return true;
    }
    return false;
  }

  path(): string {
    return this.buf.toString('latin1', this.pathStart, this.pathEnd);
  }

  /** The visit of the line read, as the text parser gives it. */
  visit(userAgent: string, referer: string | null): Visit {
    const b = this.buf;
    return {
      at: this.at,
      method: b.toString('latin1', this.methodStart, this.methodEnd),
      host: this.host,
      path: this.path(),
      status: this.status,
      ip: b.toString('latin1', this.ipStart, this.ipEnd),
      userAgent,
      referer,
      bytes: this.bytes,
      durationMs: null,
      headers: null,
    };
  }

  /** Whether the time at `t` has the minute and zone of the last minute read (`this.minute`). */
  private isLastMinute(buf: Buffer, t: number): boolean {
    const m = this.minute;
    for (let k = 16; k >= 0; k--) if (buf[t + k] !== m[k]) return false;
    for (let k = 17; k < 23; k++) if (buf[t + 3 + k] !== m[k]) return false;
    return true;
  }

  /** The end of a field without spaces beginning at `i` (the space after it), or -1. */
  private word(buf: Buffer, i: number, end: number): number {
    const from = i;
    for (; i < end; i++) {
      const c = buf[i];
      if (c === SPACE) return i === from ? -1 : i;
      if (c < 0x20 || c > 0x7e || c === BACKSLASH) return -1;
    }
    return -1;
  }

  /** The closing quote of a quoted field whose text begins at `i`, or -1 (a backslash or a byte that is not printable ASCII: not plain). */
  private quoted(buf: Buffer, i: number, end: number): number {
    for (; i < end; i++) {
      const c = buf[i];
      if (c === QUOTE) return i;
      if (c < 0x20 || c > 0x7e || c === BACKSLASH) return -1;
    }
    return -1;
  }
}
