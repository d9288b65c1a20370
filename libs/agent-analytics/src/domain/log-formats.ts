import { normaliseIp } from './ip-ranges';
import { instantProblem, isCount, isGarbage, LIMITS, MAX_BYTES, MAX_DURATION_MS, parseHost, parseIsoInstant, visitFromEntry, type Visit } from './visit';

export const LOG_FORMATS = ['nginx', 'apache', 'cloudfront', 'cloudflare', 'ndjson'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export type ParsedLine = { visit: Visit } | { reason: string } | { skip: true };

export interface LogParserOptions {
  /** The site's host for formats whose lines do not name one (nginx and apache `combined`). */
  host?: string;
  /** Now, for the future-timestamp check (tests fix it). */
  now?: () => number;
}

/** Parses the lines of one log, in order: header lines (CloudFront `#Fields:`) change how later lines are read. */
export interface LogParser {
  parse(line: string): ParsedLine;
}

export function logParser(format: LogFormat, options: LogParserOptions = {}): LogParser {
  const now = options.now ?? Date.now;
  switch (format) {
    case 'nginx':
    case 'apache':
      return { parse: (line) => parseCombined(line, options.host, now()) };
    case 'cloudfront':
      return new CloudFrontParser(now);
    case 'cloudflare':
      return { parse: (line) => parseCloudflare(line, now()) };
    case 'ndjson':
      return { parse: (line) => parseNdjson(line, now()) };
  }
}

const MONTHS: Record<string, number> = { Jan: 0, Feb: 1, Mar: 2, Apr: 3, May: 4, Jun: 5, Jul: 6, Aug: 7, Sep: 8, Oct: 9, Nov: 10, Dec: 11 };

/** `10/Oct/2000:13:55:36 -0700` (nginx `$time_local`, apache `%t`) in ms, or null when it is no real instant. */
export function parseTimeLocal(t: string): number | null {
  const m = /^(\d{2})\/([A-Z][a-z]{2})\/(\d{4}):(\d{2}):(\d{2}):(\d{2}) ([+-])(\d{2})(\d{2})$/.exec(t);
  if (!m) return null;
  const mo = MONTHS[m[2]];
  if (mo === undefined) return null;
  const [d, y, h, mi, s] = [m[1], m[3], m[4], m[5], m[6]].map(Number);
  const local = Date.UTC(y, mo, d, h, mi, s);
  const c = new Date(local);
  if (c.getUTCDate() !== d || c.getUTCMonth() !== mo || h > 23 || mi > 59 || s > 59) return null;
  const oh = Number(m[8]);
  const om = Number(m[9]);
  if (oh > 14 || om > 59) return null;
  return local - (m[7] === '-' ? -1 : 1) * (oh * 60 + om) * 60_000;
}

/** Undoes the escapes nginx (`\x22`, and `\"` with escape=json) and apache (`\"`, `\\`) write inside quoted fields. */
export function unescapeLogField(s: string): string {
  if (!s.includes('\\')) return s;
  // A run of \xHH escapes is the bytes of one or more UTF-8 characters (nginx escapes every byte
  // above 0x7F of a request line: `/caf\xC3\xA9` is `/café`); bytes that are no UTF-8 become U+FFFD.
  return s.replace(/(?:\\x[0-9A-Fa-f]{2})+|\\(u[0-9A-Fa-f]{4}|.)/g, (m: string, e: string | undefined) => {
    if (e === undefined) {
      const bytes = new Uint8Array(m.length / 4);
      for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(m.slice(i * 4 + 2, i * 4 + 4), 16);
      return UTF8.decode(bytes);
    }
    if (e[0] === 'u' && e.length === 5) return String.fromCharCode(parseInt(e.slice(1), 16));
    return e === 'n' ? '\n' : e === 't' ? '\t' : e;
  });
}

const UTF8 = new TextDecoder('utf-8');

// [vhost[:port] ]ip ident user [time] "request" status bytes "referer" "user agent"[ anything]
// A quoted field with backslash escapes, as an unrolled loop (no alternation per character).
const Q = '"([^"\\\\]*(?:\\\\.[^"\\\\]*)*)"';
const COMBINED = new RegExp(`^(?:(\\S+:\\d+) )?(\\S+) \\S+ \\S+ \\[([^\\]]+)\\] ${Q} (\\d{3}) (\\d+|-) ${Q} ${Q}(.*)$`);

/**
 * Consecutive log lines share their minute (and zone) and host: the last minute's instant is kept,
 * and a line of that minute only adds its seconds (`dd/Mon/yyyy:hh:mm` `:ss` ` +zzzz`).
 */
let lastMinute = '';
let lastMinuteValue: number | null = null;
function timeOf(text: string): number | null {
  if (text.length !== 26 || text.charCodeAt(17) !== 58 || text.charCodeAt(20) !== 32) return parseTimeLocal(text);
  const s1 = text.charCodeAt(18) - 48;
  const s2 = text.charCodeAt(19) - 48;
  if (s1 < 0 || s1 > 5 || s2 < 0 || s2 > 9) return null;
  const minute = text.slice(0, 17) + text.slice(20);
  if (minute !== lastMinute) {
    lastMinute = minute;
    lastMinuteValue = parseTimeLocal(`${text.slice(0, 17)}:00${text.slice(20)}`);
  }
  return lastMinuteValue === null ? null : lastMinuteValue + (s1 * 10 + s2) * 1000;
}

function parseCombined(line: string, defaultHost: string | undefined, now: number): ParsedLine {
  const m = COMBINED.exec(line);
  if (!m) return { reason: 'not a combined log line (ip - user [time] "request" status bytes "referer" "user agent")' };
  const [, vhost, ipText, time, request, statusText, bytesText, refererText, uaText] = m;
  return fromFields({
    hostText: vhost ?? defaultHost,
    ipText,
    at: timeOf(time),
    request: unescapeLogField(request),
    status: Number(statusText),
    bytes: bytesText === '-' ? null : Number(bytesText),
    referer: unescapeLogField(refererText),
    userAgent: unescapeLogField(uaText),
    now,
  });
}

let lastHost = '';
let lastHostValue: ReturnType<typeof parseHost> = { problem: '' };
function hostOf(text: string): ReturnType<typeof parseHost> {
  if (text !== lastHost) {
    lastHost = text;
    lastHostValue = parseHost(text);
  }
  return lastHostValue;
}

interface Fields {
  hostText: string | undefined;
  ipText: string;
  at: number | null;
  /** `GET /path HTTP/1.1`, or method and path apart. */
  request?: string;
  method?: string;
  path?: string;
  status: number;
  /** Null when the log has none; anything but a whole number from 0 to MAX_BYTES refuses the line. */
  bytes: number | null;
  referer: string;
  userAgent: string;
  /** Null when the log has none; anything but a whole number from 0 to MAX_DURATION_MS refuses the line. */
  durationMs?: number | null;
  now: number;
}

function fromFields(f: Fields): ParsedLine {
  if (f.at === null) return { reason: 'the time is not a real instant' };
  const why = instantProblem(f.at, f.now);
  if (why) return { reason: `the time ${why}` };
  let method = f.method;
  let path = f.path;
  if (f.request !== undefined) {
    const parts = f.request.split(' ');
    if (parts.length < 2 || parts.length > 3) return { reason: 'the request is not "METHOD path [protocol]"' };
    [method, path] = parts;
  }
  if (!method || !/^[A-Z]{1,16}$/.test(method)) return { reason: 'the request method is not an HTTP method' };
  if (!path || !(path.startsWith('/') || path === '*') || path.length > LIMITS.path || isGarbage(path)) return { reason: 'the request path is not a path' };
  if (!Number.isInteger(f.status) || f.status < 100 || f.status > 599) return { reason: 'the status is not from 100 to 599' };
  if (f.bytes !== null && !isCount(f.bytes, MAX_BYTES)) return { reason: `the byte count is not a whole number from 0 to ${MAX_BYTES}` };
  if (f.durationMs !== undefined && f.durationMs !== null && !isCount(f.durationMs, MAX_DURATION_MS)) return { reason: `the time taken is not a whole number of milliseconds from 0 to ${MAX_DURATION_MS}` };
  if (f.hostText === undefined || f.hostText === '' || f.hostText === '-') return { reason: 'the line names no host (give the site host)' };
  const host = hostOf(f.hostText);
  if ('problem' in host) return { reason: `the host ${host.problem}` };
  const ip = normaliseIp(f.ipText);
  if (ip === null) return { reason: 'the client address is not an IP address' };
  if (f.userAgent.length > LIMITS.userAgent || isGarbage(f.userAgent)) return { reason: 'the user agent is not printable text' };
  if (f.referer.length > LIMITS.referer || isGarbage(f.referer)) return { reason: 'the referer is not printable text' };
  return {
    visit: {
      at: Math.floor(f.at),
      method,
      host: host.host,
      path,
      status: f.status,
      ip,
      userAgent: f.userAgent === '-' ? '' : f.userAgent,
      referer: f.referer === '' || f.referer === '-' ? null : f.referer,
      bytes: f.bytes,
      durationMs: f.durationMs ?? null,
      headers: null,
    },
  };
}

/** CloudFront standard logs (W3C, tab separated, `#Fields:` names the columns; user agents URL-encoded). */
const CLOUDFRONT_DEFAULT_FIELDS = 'date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer) cs(User-Agent) cs-uri-query cs(Cookie) x-edge-result-type x-edge-request-id x-host-header cs-protocol cs-bytes time-taken'.split(' ');

class CloudFrontParser implements LogParser {
  private index = new Map(CLOUDFRONT_DEFAULT_FIELDS.map((f, i) => [f, i]));
  constructor(private readonly now: () => number) {}

  parse(line: string): ParsedLine {
    if (line.startsWith('#')) {
      if (line.startsWith('#Fields:')) this.index = new Map(line.slice(8).trim().split(/\s+/).map((f, i) => [f, i]));
      return { skip: true };
    }
    const cols = line.split('\t');
    const col = (name: string): string | undefined => {
      const i = this.index.get(name);
      return i === undefined ? undefined : cols[i];
    };
    const date = col('date');
    const time = col('time');
    if (cols.length < 11 || !date || !time) return { reason: 'not a CloudFront log line (tab-separated fields of #Fields)' };
    const at = parseIsoInstant(`${date}T${time}Z`);
    const decode = (v: string | undefined): string | null => {
      if (v === undefined || v === '-') return '';
      try {
        // CloudFront URL-encodes the user agent and referer (some characters twice).
        let d = decodeURIComponent(v);
        if (/%[0-9A-Fa-f]{2}/.test(d)) d = decodeURIComponent(d);
        return d;
      } catch {
        return null;
      }
    };
    const ua = decode(col('cs(User-Agent)'));
    const referer = decode(col('cs(Referer)'));
    if (ua === null || referer === null) return { reason: 'a URL-encoded field is not valid percent-encoding' };
    const query = col('cs-uri-query');
    const stem = col('cs-uri-stem') ?? '';
    const bytes = col('sc-bytes');
    const taken = col('time-taken');
    const none = (v: string | undefined) => v === undefined || v === '' || v === '-';
    return fromFields({
      hostText: col('x-host-header') && col('x-host-header') !== '-' ? col('x-host-header') : col('cs(Host)'),
      ipText: col('c-ip') ?? '',
      at,
      method: col('cs-method'),
      path: query && query !== '-' ? `${stem}?${query}` : stem,
      status: Number(col('sc-status')),
      bytes: none(bytes) ? null : /^\d+$/.test(bytes!) ? Number(bytes) : Number.NaN,
      referer,
      userAgent: ua,
      // time-taken is in seconds (to the millisecond).
      durationMs: none(taken) ? null : /^\d+(\.\d+)?$/.test(taken!) ? Math.round(Number(taken) * 1000) : Number.NaN,
      now: this.now(),
    });
  }
}

/** Cloudflare Logpush (http_requests, NDJSON): EdgeStartTimestamp as RFC 3339, Unix seconds or nanoseconds. */
function parseCloudflare(line: string, now: number): ParsedLine {
  if (line.trim() === '') return { skip: true };
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return { reason: 'not a JSON object (Cloudflare Logpush lines are NDJSON)' };
  }
  if (!o || typeof o !== 'object' || Array.isArray(o)) return { reason: 'not a JSON object' };
  const at = cloudflareInstant(o.EdgeStartTimestamp);
  const end = o.EdgeEndTimestamp === undefined || o.EdgeEndTimestamp === null ? null : cloudflareInstant(o.EdgeEndTimestamp);
  const str = (k: string) => (typeof o[k] === 'string' ? (o[k] as string) : '');
  const status = typeof o.EdgeResponseStatus === 'number' ? o.EdgeResponseStatus : Number.NaN;
  const bytes = o.EdgeResponseBytes === undefined || o.EdgeResponseBytes === null ? null : typeof o.EdgeResponseBytes === 'number' ? o.EdgeResponseBytes : Number.NaN;
  return fromFields({
    hostText: str('ClientRequestHost'),
    ipText: str('ClientIP'),
    at,
    method: str('ClientRequestMethod'),
    path: str('ClientRequestURI'),
    status,
    bytes,
    referer: str('ClientRequestReferer'),
    userAgent: str('ClientRequestUserAgent'),
    // From the edge's start to its end; an end the line does not give, or cannot be read, says nothing.
    durationMs: at !== null && end !== null ? Math.round(end - at) : null,
    now,
  });
}

/** A Logpush timestamp in ms (RFC 3339, or Unix seconds, milliseconds or nanoseconds by its size, possibly fractional), or null. */
function cloudflareInstant(ts: unknown): number | null {
  if (typeof ts === 'string') return parseIsoInstant(ts);
  if (typeof ts !== 'number' || !Number.isFinite(ts)) return null;
  return ts > 1e15 ? ts / 1e6 : ts > 1e12 ? ts : ts * 1000;
}

/** The ingest API's entry format, one JSON object a line. */
function parseNdjson(line: string, now: number): ParsedLine {
  if (line.trim() === '') return { skip: true };
  let o: unknown;
  try {
    o = JSON.parse(line);
  } catch {
    return { reason: 'not a JSON object' };
  }
  const r = visitFromEntry(o, 'entry', now);
  if ('problems' in r) return { reason: r.problems.map((p) => p.message).join('; ') };
  return r;
}
