import ipaddr from 'ipaddr.js';

/** A set of CIDR prefixes answering "which owner's range holds this address" by binary search. */
export class PrefixTable<Owner> {
  private v4: { start: number; end: number; owner: Owner }[] = [];
  private v6: { start: bigint; end: bigint; owner: Owner }[] = [];

  constructor(prefixes: Iterable<{ cidr: string; owner: Owner }>) {
    for (const { cidr, owner } of prefixes) {
      const [addr, bits] = ipaddr.parseCIDR(cidr);
      if (addr.kind() === 'ipv4') {
        const base = v4Number((addr as ipaddr.IPv4).octets);
        const size = 2 ** (32 - bits);
        const start = base - (base % size);
        this.v4.push({ start, end: start + size - 1, owner });
      } else {
        const base = v6Number((addr as ipaddr.IPv6).toByteArray());
        const size = 1n << BigInt(128 - bits);
        const start = base - (base % size);
        this.v6.push({ start, end: start + size - 1n, owner });
      }
    }
    this.v4.sort((a, b) => a.start - b.start || b.end - a.end);
    this.v6.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  }

  get size(): number {
    return this.v4.length + this.v6.length;
  }

  /** Every owner whose prefix holds the address (an invalid address holds nothing). */
  owners(ip: string): Owner[] {
    const addr = parseIp(ip);
    if (!addr) return [];
    if (addr.kind === 4) return matches(this.v4, addr.value);
    return matches(this.v6, addr.value);
  }

  contains(ip: string, owner: Owner): boolean {
    return this.owners(ip).includes(owner);
  }
}

/** Prefixes sorted by start: the candidates are those starting at or before the address; overlaps are rare, so scan back. */
function matches<N extends number | bigint, O>(list: { start: N; end: N; owner: O }[], value: N): O[] {
  let lo = 0;
  let hi = list.length - 1;
  let last = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid].start <= value) {
      last = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  const found: O[] = [];
  // Nested or overlapping prefixes of several owners: look back while a wider range may still hold the address.
  for (let i = last; i >= 0 && i > last - 64; i--) if (list[i].end >= value && !found.includes(list[i].owner)) found.push(list[i].owner);
  return found;
}

function v4Number(o: number[]): number {
  return ((o[0] << 24) >>> 0) + (o[1] << 16) + (o[2] << 8) + o[3];
}

function v6Number(bytes: number[]): bigint {
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  return n;
}

/**
 * A dotted quad in its normal form (four decimals 0-255, no leading zeros: what logs hold) as a
 * number, or -1. Read character by character: most addresses of a log take this way, and it
 * makes nothing.
 */
export function dottedQuad(ip: string): number {
  const n = ip.length;
  if (n < 7 || n > 15) return -1;
  let value = 0;
  let part = 0;
  let digits = 0;
  let dots = 0;
  for (let i = 0; i < n; i++) {
    const c = ip.charCodeAt(i);
    if (c === 46) {
      if (digits === 0 || dots === 3) return -1;
      value = value * 256 + part;
      part = 0;
      digits = 0;
      dots++;
    } else if (c >= 48 && c <= 57) {
      if (digits > 0 && part === 0) return -1;
      part = part * 10 + (c - 48);
      if (++digits > 3 || part > 255) return -1;
    } else return -1;
  }
  if (dots !== 3 || digits === 0) return -1;
  return value * 256 + part;
}

/** An address as a number (IPv4-mapped IPv6 as IPv4), or null when it is not an address. */
export function parseIp(ip: string): { kind: 4; value: number } | { kind: 6; value: bigint } | null {
  const quad = dottedQuad(ip);
  if (quad >= 0) return { kind: 4, value: quad };
  if (!ipaddr.isValid(ip)) return null;
  let addr = ipaddr.parse(ip);
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) addr = (addr as ipaddr.IPv6).toIPv4Address();
  if (addr.kind() === 'ipv4') {
    if (!ipaddr.IPv4.isValidFourPartDecimal(ip) && !ip.includes(':')) return null;
    return { kind: 4, value: v4Number((addr as ipaddr.IPv4).octets) };
  }
  return { kind: 6, value: v6Number((addr as ipaddr.IPv6).toByteArray()) };
}

/** The address in its normal text form (`::ffff:1.2.3.4` → `1.2.3.4`, `fe80::1%eth0` → `fe80::1`), or null when it is none. */
export function normaliseIp(ip: string): string | null {
  // The common case, a plain dotted quad without leading zeros, is already normal.
  if (dottedQuad(ip) >= 0) return ip;
  const p = parseIp(ip);
  if (!p) return null;
  // An IPv6 zone (`fe80::1%eth0`, as Node reports a link-local peer) names an interface of the
  // machine that logged the request: nothing about the client, and PostgreSQL's inet refuses it.
  const zone = ip.indexOf('%');
  const addr = ipaddr.parse(zone < 0 ? ip : ip.slice(0, zone));
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) return (addr as ipaddr.IPv6).toIPv4Address().toString();
  return addr.toString();
}

/** The published-ranges JSON of an operator (`{prefixes: [{ipv4Prefix} | {ipv6Prefix}]}`, as OpenAI, Google, Bing, Perplexity publish it): its CIDRs. */
export function prefixesOfPublishedRanges(doc: unknown): string[] {
  const prefixes = (doc as { prefixes?: unknown })?.prefixes;
  if (!Array.isArray(prefixes)) throw new Error('the document has no "prefixes" list');
  const out: string[] = [];
  for (const p of prefixes) {
    const cidr = (p as Record<string, unknown>)?.ipv4Prefix ?? (p as Record<string, unknown>)?.ipv6Prefix;
    if (typeof cidr !== 'string') continue;
    try {
      ipaddr.parseCIDR(cidr);
      out.push(cidr);
    } catch {
      /* a malformed prefix is skipped */
    }
  }
  return out;
}
