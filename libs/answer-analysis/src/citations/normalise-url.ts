/** A URL made comparable: fragment, utm_* parameters and a trailing slash removed; scheme and host in lower case. */
export interface NormalisedUrl {
  readonly url: string;
  readonly host: string;
}

const MAX_URL_LENGTH = 8192;

/** Characters a path or query may hold that the WHATWG parser leaves as they are: A-Z a-z 0-9 - . _ ~ ! $ & ( ) * + , ; = : @ / % (and ' in the path). */
const PLAIN = new Uint8Array(128);
for (const ch of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&()*+,;=:@/%") PLAIN[ch.charCodeAt(0)] = 1;

function hostChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 45 || c === 46 || (c >= 65 && c <= 90);
}

function withoutUtm(query: string): string {
  if (query.length === 0) return '';
  let out = '';
  let from = 0;
  while (from <= query.length) {
    let amp = query.indexOf('&', from);
    if (amp < 0) amp = query.length;
    if (amp > from) {
      const p0 = query.charCodeAt(from) | 32;
      const isUtm = amp - from >= 4 && p0 === 117 && (query.charCodeAt(from + 1) | 32) === 116 && (query.charCodeAt(from + 2) | 32) === 109 && query.charCodeAt(from + 3) === 95;
      if (!isUtm) out = out.length === 0 ? query.slice(from, amp) : `${out}&${query.slice(from, amp)}`;
    }
    from = amp + 1;
  }
  return out;
}

/**
 * The common case without the WHATWG parser: http(s)://host/path?query#fragment with a plain lower/upper-case ASCII
 * host (no port, credentials, IP address or punycode), and path and query made only of characters the parser leaves
 * unchanged, with no dot segments. Returns undefined for anything else (the full parser decides).
 */
function fastNormalise(s: string): NormalisedUrl | undefined {
  let p: number;
  const c4 = s.charCodeAt(4);
  if (c4 === 58) p = 5; // http:
  else if ((c4 | 32) === 115 && s.charCodeAt(5) === 58) p = 6; // https:
  else return undefined;
  if (s.charCodeAt(p) !== 47 || s.charCodeAt(p + 1) !== 47) return undefined;
  const scheme = p === 5 ? 'http:' : 'https:';
  const hostStart = p + 2;
  let q = hostStart;
  let upper = false;
  while (q < s.length) {
    const c = s.charCodeAt(q);
    if (c === 47 || c === 63 || c === 35) break;
    if (!hostChar(c)) return undefined;
    if (c >= 65 && c <= 90) upper = true;
    q++;
  }
  let host = s.slice(hostStart, q);
  if (upper) host = host.toLowerCase();
  if (host.length === 0 || host.charCodeAt(0) === 46 || host.includes('..') || host.startsWith('xn--') || host.includes('.xn--')) return undefined;
  if (host.charCodeAt(host.length - 1) === 46) host = host.slice(0, -1);
  const lastDot = host.lastIndexOf('.');
  const lastLabel = host.charCodeAt(lastDot + 1);
  if (lastLabel >= 48 && lastLabel <= 57) return undefined; // may be an IPv4 address
  if (host.length === 0) return undefined;
  // Path.
  const pathStart = q;
  while (q < s.length) {
    const c = s.charCodeAt(q);
    if (c === 63 || c === 35) break;
    if (c >= 128 || (PLAIN[c] !== 1 && c !== 39)) return undefined;
    if (c === 46 && s.charCodeAt(q - 1) === 47) {
      const n = s.charCodeAt(q + 1);
      if (Number.isNaN(n) || n === 47 || n === 63 || n === 35 || (n === 46 && (q + 2 >= s.length || s.charCodeAt(q + 2) === 47 || s.charCodeAt(q + 2) === 63 || s.charCodeAt(q + 2) === 35))) return undefined;
    }
    if (c === 37 && (s.charCodeAt(q + 1) === 50 && (s.charCodeAt(q + 2) | 32) === 101)) return undefined; // %2e
    q++;
  }
  let pathEnd = q;
  while (pathEnd > pathStart && s.charCodeAt(pathEnd - 1) === 47) pathEnd--;
  const path = s.slice(pathStart, pathEnd);
  // Query.
  let query = '';
  if (s.charCodeAt(q) === 63) {
    const queryStart = q + 1;
    q++;
    while (q < s.length) {
      const c = s.charCodeAt(q);
      if (c === 35) break;
      if (c >= 128 || PLAIN[c] !== 1) return undefined;
      q++;
    }
    query = withoutUtm(s.slice(queryStart, q));
  }
  return { url: query.length > 0 ? `${scheme}//${host}${path}?${query}` : `${scheme}//${host}${path}`, host };
}

/**
 * Normalises an http(s) URL as the labelling rules compare them. Returns null for anything that is not a
 * well-formed http(s) URL (or is longer than 8 KiB). Plain URLs take a fast path that gives what the WHATWG parser
 * would; the rest go through `URL`.
 */
export function normaliseUrl(raw: string): NormalisedUrl | null {
  const trimmed = raw.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_URL_LENGTH) return null;
  if (!/^https?:\/\//i.test(trimmed)) return null;
  const fast = fastNormalise(trimmed);
  if (fast !== undefined) return fast;
  return parseNormalise(trimmed);
}

/** The WHATWG-parser normalisation (the reference for the fast path). */
export function parseNormalise(trimmed: string): NormalisedUrl | null {
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    return null;
  }
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.hostname === '') return null;
  const host = parsed.hostname.toLowerCase().replace(/\.$/, '');
  let path = parsed.pathname;
  while (path.length > 0 && path.endsWith('/')) path = path.slice(0, -1);
  const query = parsed.search.length > 1
    ? parsed.search
        .slice(1)
        .split('&')
        .filter((p) => p.length > 0 && !p.toLowerCase().startsWith('utm_'))
        .join('&')
    : '';
  const port = parsed.port ? `:${parsed.port}` : '';
  const url = `${parsed.protocol}//${host}${port}${path}${query ? `?${query}` : ''}`;
  return { url, host };
}

/** The labels' domain: the host without a leading "www.". */
export function labelDomain(host: string): string {
  return host.startsWith('www.') ? host.slice(4) : host;
}
