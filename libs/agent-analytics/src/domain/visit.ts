import { normaliseIp } from './ip-ranges';

/** One HTTP request to a customer's site, as every way in (API, CLI logs, middleware) delivers it (DESIGN §13.2). */
export interface Visit {
  /** Milliseconds since the epoch. */
  at: number;
  method: string;
  /** Lower case, without a port or a trailing dot. */
  host: string;
  /** Path and query as requested. */
  path: string;
  status: number;
  ip: string;
  userAgent: string;
  referer: string | null;
  bytes: number | null;
  durationMs: number | null;
  /** Request headers the verification may need (Signature, Signature-Input, Signature-Agent), lower-case names. */
  headers: Record<string, string> | null;
}

export const LIMITS = {
  path: 4096,
  userAgent: 1024,
  referer: 4096,
  headers: 50,
  headerValue: 8192,
} as const;

/**
 * A string that shares no memory with the text it was cut from. V8 keeps a substring of 13
 * characters or more as a view of its parent, so one field of a log line cut from a 64 KiB read
 * keeps the whole read alive: a batch or a cache holding a few such fields holds the log.
 * Concatenating and slicing again flattens the string into a copy of its own.
 */
export function ownString(text: string): string {
  return text.length < 13 ? text : `${text} `.slice(0, -1);
}

/** The visit with strings of its own (see ownString), for holding it beyond the read it came from. */
export function detachVisit(v: Visit): Visit {
  return {
    at: v.at,
    method: ownString(v.method),
    host: ownString(v.host),
    path: ownString(v.path),
    status: v.status,
    ip: ownString(v.ip),
    userAgent: ownString(v.userAgent),
    referer: v.referer === null ? null : ownString(v.referer),
    bytes: v.bytes,
    durationMs: v.durationMs,
    headers: v.headers,
  };
}

/**
 * The largest values the numeric columns of bot_visits hold, so the largest a visit may carry:
 * `bytes` is a bigint, but a JavaScript number is exact only up to 2^53 - 1; `duration_ms` is an
 * integer (32 bits). `status` is a smallint, and HTTP's 100-599 fits it.
 */
export const MAX_BYTES = Number.MAX_SAFE_INTEGER;
export const MAX_DURATION_MS = 2_147_483_647;

/** Whether a value is a whole number from 0 to `max` (what a count column holds). */
export function isCount(v: unknown, max: number): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= max;
}

/** The earliest visit accepted (older dates are typos or zeroed clocks). */
export const EARLIEST = Date.UTC(2000, 0, 1);
/** How far ahead of our clock a visit may be (clock skew). */
export const MAX_FUTURE_MS = 24 * 3600_000;

const ISO = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-]\d{2}:?\d{2})$/i;

/** An ISO 8601 instant with a zone, checked to be a real calendar instant (no 30 February, no hour 25), in ms; or null. */
export function parseIsoInstant(text: string): number | null {
  const m = ISO.exec(text);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number);
  const ms = m[7] ? Math.floor(Number(`0${m[7]}`) * 1000) : 0;
  const local = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  const check = new Date(local);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d || check.getUTCHours() !== h || check.getUTCMinutes() !== mi || check.getUTCSeconds() !== s) return null;
  let offset = 0;
  if (m[8].toUpperCase() !== 'Z') {
    const z = m[8].replace(':', '');
    const oh = Number(z.slice(1, 3));
    const om = Number(z.slice(3, 5));
    if (oh > 14 || om > 59) return null;
    offset = (z[0] === '-' ? -1 : 1) * (oh * 60 + om) * 60_000;
  }
  return local - offset;
}

/** Why an instant is impossible for a visit, or null. */
export function instantProblem(at: number, now: number): string | null {
  if (!Number.isFinite(at)) return 'is not a date';
  if (at < EARLIEST) return 'is before 2000-01-01';
  if (at > now + MAX_FUTURE_MS) return 'is more than a day in the future';
  return null;
}

const HOST = /^(?=.{1,253}$)(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?\.)*[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;
const METHOD = /^[A-Z]{1,16}$/;

/** `example.com`, `Example.COM:8443`, `[2001:db8::1]:80`, `1.2.3.4` → the host without its port; an impossible port or name is a problem. */
export function parseHost(text: string): { host: string } | { problem: string } {
  let host = text.trim().toLowerCase();
  let port: string | null = null;
  const v6 = /^\[([0-9a-f:.]+)\](?::(\d*))?$/.exec(host);
  if (v6) {
    host = v6[1];
    port = v6[2] ?? null;
    if (normaliseIp(host) === null) return { problem: 'is not a host name' };
  } else {
    const i = host.lastIndexOf(':');
    if (i >= 0) {
      port = host.slice(i + 1);
      host = host.slice(0, i);
    }
    host = host.replace(/\.$/, '');
    if (!HOST.test(host)) return { problem: 'is not a host name' };
  }
  if (port !== null && (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535)) return { problem: `has an impossible port "${port.slice(0, 10)}" (1-65535)` };
  return { host };
}

/** Control characters and invalid UTF-16 (binary garbage) in a text field. */
// eslint-disable-next-line no-control-regex
const GARBAGE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffd]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
export function isGarbage(text: string): boolean {
  return GARBAGE.test(text);
}

export interface FieldProblem {
  field: string;
  message: string;
}

/**
 * An ingest entry (`{timestamp, method, host, path, status, ip, userAgent, referer?, bytes?,
 * durationMs?, headers?}`) checked field by field: the visit, or every problem, each naming
 * `<prefix>.<field>`. `timestamp` is ISO 8601 with a zone or epoch milliseconds.
 */
export function visitFromEntry(raw: unknown, prefix: string, now: number): { visit: Visit } | { problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  const p = (field: string, message: string) => problems.push({ field: `${prefix}.${field}`, message: `${field} ${message}` });
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return { problems: [{ field: prefix, message: 'an entry must be a JSON object' }] };
  const e = raw as Record<string, unknown>;
  for (const k of Object.keys(e)) if (!ENTRY_FIELDS.has(k)) p(k, 'is not a field of an entry');
  let at = NaN;
  if (typeof e.timestamp === 'string') at = parseIsoInstant(e.timestamp) ?? NaN;
  else if (typeof e.timestamp === 'number' && Number.isInteger(e.timestamp)) at = e.timestamp;
  if (e.timestamp === undefined) p('timestamp', 'is required');
  else if (Number.isNaN(at)) p('timestamp', 'must be an ISO 8601 instant with a zone (or epoch milliseconds) of a real calendar day');
  else {
    const why = instantProblem(at, now);
    if (why) p('timestamp', why);
  }
  const method = typeof e.method === 'string' ? e.method.toUpperCase() : '';
  if (!METHOD.test(method)) p('method', 'must be an HTTP method (letters, at most 16)');
  let host = '';
  if (typeof e.host !== 'string') p('host', 'is required (a host name)');
  else {
    const h = parseHost(e.host);
    if ('problem' in h) p('host', h.problem);
    else host = h.host;
  }
  if (typeof e.path !== 'string' || !(e.path.startsWith('/') || e.path === '*') || e.path.length > LIMITS.path || isGarbage(e.path) || /\s/.test(e.path)) p('path', `must start with / and hold at most ${LIMITS.path} printable characters`);
  if (typeof e.status !== 'number' || !Number.isInteger(e.status) || e.status < 100 || e.status > 599) p('status', 'must be an HTTP status from 100 to 599');
  const ip = typeof e.ip === 'string' ? normaliseIp(e.ip) : null;
  if (ip === null) p('ip', 'must be an IPv4 or IPv6 address');
  if (typeof e.userAgent !== 'string' || e.userAgent.length > LIMITS.userAgent || isGarbage(e.userAgent)) p('userAgent', `must be a string of at most ${LIMITS.userAgent} printable characters`);
  if (e.referer !== undefined && e.referer !== null && (typeof e.referer !== 'string' || e.referer.length > LIMITS.referer || isGarbage(e.referer))) p('referer', `must be a string of at most ${LIMITS.referer} printable characters`);
  for (const [f, max] of [['bytes', MAX_BYTES], ['durationMs', MAX_DURATION_MS]] as const) {
    const v = e[f];
    if (v !== undefined && v !== null && !isCount(v, max)) p(f, `must be a whole number from 0 to ${max}`);
  }
  let headers: Record<string, string> | null = null;
  if (e.headers !== undefined && e.headers !== null) {
    if (typeof e.headers !== 'object' || Array.isArray(e.headers)) p('headers', 'must be an object of header names to strings');
    else {
      const entries = Object.entries(e.headers as Record<string, unknown>);
      if (entries.length > LIMITS.headers) p('headers', `must hold at most ${LIMITS.headers} headers`);
      else if (entries.some(([k, v]) => typeof v !== 'string' || v.length > LIMITS.headerValue || !/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/.test(k))) p('headers', `must map header names to strings of at most ${LIMITS.headerValue} characters`);
      else headers = Object.fromEntries(entries.map(([k, v]) => [k.toLowerCase(), v as string]));
    }
  }
  if (problems.length) return { problems };
  return {
    visit: {
      at,
      method,
      host,
      path: e.path as string,
      status: e.status as number,
      ip: ip!,
      userAgent: e.userAgent as string,
      referer: typeof e.referer === 'string' && e.referer !== '' && e.referer !== '-' ? e.referer : null,
      bytes: (e.bytes as number | undefined) ?? null,
      durationMs: (e.durationMs as number | undefined) ?? null,
      headers,
    },
  };
}

const ENTRY_FIELDS = new Set(['timestamp', 'method', 'host', 'path', 'status', 'ip', 'userAgent', 'referer', 'bytes', 'durationMs', 'headers']);
