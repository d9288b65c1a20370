import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { FETCH_FAILURE_MESSAGES } from './fetch-failure-messages';

/**
 * The address guard of every outgoing request the service makes for a customer (webhook
 * deliveries, page audits): a server-side request forgery guard. Only globally routable unicast addresses are allowed:
 * loopback, private, link-local (169.254.169.254 and other metadata endpoints), unique-local
 * (fd00:ec2::254), carrier-grade NAT, unspecified, broadcast, multicast, reserved, documentation,
 * NAT64/6to4/Teredo and IPv4-compatible ::a.b.c.d (which can embed any IPv4 address) are refused; an IPv4-mapped IPv6 address
 * is judged as its IPv4 address. Applied at creation (the URL's host resolved now) and again at
 * connect time through the HTTP agent's `lookup`, so a name that resolves elsewhere later (DNS
 * rebinding) is still refused: the socket connects only to the address that was checked.
 */
export class BlockedAddressError extends Error {
  override readonly name = 'BlockedAddressError';
  readonly code = 'EBLOCKEDADDRESS';
}

/** ::/96, the deprecated IPv4-compatible addresses (RFC 4291 §2.5.5.1): ipaddr.js calls them unicast, yet ::a.b.c.d embeds any IPv4 address. */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/**
 * Non-public addresses an operator lets through anyway (local development and tests): a list of
 * CIDR ranges, e.g. `127.0.0.1/32`. Everything outside them stays refused.
 */
export class AddressAllowance {
  private readonly ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][];

  constructor(readonly cidrs: readonly string[]) {
    this.ranges = cidrs.map((c) => ipaddr.parseCIDR(c));
  }

  /** A comma list of CIDRs (a bare address is its own /32 or /128); throws a RangeError naming a bad one. */
  static parse(text: string): AddressAllowance {
    const items = text.split(',').map((s) => s.trim()).filter(Boolean);
    for (const item of items) {
      const cidr = item.includes('/') ? item : `${item}/${item.includes(':') ? 128 : 32}`;
      try {
        ipaddr.parseCIDR(cidr);
      } catch {
        throw new RangeError(`"${item}" is not an address or CIDR range`);
      }
    }
    return new AddressAllowance(items.map((item) => (item.includes('/') ? item : `${item}/${item.includes(':') ? 128 : 32}`)));
  }

  has(address: string): boolean {
    if (!ipaddr.isValid(address)) return false;
    let ip = ipaddr.parse(address);
    if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
    return this.ranges.some(([range, bits]) => range.kind() === ip.kind() && ip.match(range, bits));
  }
}

/**
 * What a caller lets through beyond public addresses: `false` nothing (the default), `true`
 * everything (WEBHOOK_ALLOW_PRIVATE_URLS), or an AddressAllowance of ranges.
 */
export type Allowance = boolean | AddressAllowance;

/** Whether a connection to `address` may be made under `allow`. */
export function isAllowedAddress(address: string, allow: Allowance): boolean {
  if (allow === true) return true;
  if (!isBlockedAddress(address)) return true;
  return allow instanceof AddressAllowance && allow.has(address);
}

export function isBlockedAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true;
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6;
    if (v6.match(IPV4_COMPATIBLE as [ipaddr.IPv6, number])) return true;
    if (v6.isIPv4MappedAddress()) ip = v6.toIPv4Address();
  }
  return ip.range() !== 'unicast';
}

export type LookupFunction = (hostname: string, options: { all: true }, callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

/** Resolves a host (an IP literal resolves to itself) to all of its addresses. */
export function resolveAll(host: string, lookup: LookupFunction = dnsLookup as unknown as LookupFunction): Promise<LookupAddress[]> {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const family = isIP(bare);
  if (family) return Promise.resolve([{ address: bare, family }]);
  return new Promise((resolve, reject) => lookup(bare, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))));
}

/**
 * Checks a URL's host: every address it resolves to must be allowed (one bad address is enough
 * to refuse). Returns the reason, or null when allowed.
 */
export async function blockedUrlReason(url: URL, allow: Allowance, lookup?: LookupFunction): Promise<string | null> {
  if (allow === true) return null;
  let addresses: LookupAddress[];
  try {
    addresses = await resolveAll(url.hostname, lookup);
  } catch {
    return `url host ${url.hostname}: ${FETCH_FAILURE_MESSAGES.name_not_resolved}`;
  }
  if (!addresses.length) return `url host ${url.hostname}: ${FETCH_FAILURE_MESSAGES.name_not_resolved}`;
  // The host is the caller's own words; what it resolves to is our network's, never told.
  const bad = addresses.find((a) => !isAllowedAddress(a.address, allow));
  return bad ? `url host ${url.hostname}: ${FETCH_FAILURE_MESSAGES.address_not_allowed}` : null;
}

/**
 * A `lookup` for an HTTP agent: resolves, refuses the connection when any address is not
 * allowed, and hands the checked addresses to the socket (which connects to one of them).
 */
export function guardedLookup(allow: Allowance, lookup: LookupFunction = dnsLookup as unknown as LookupFunction) {
  return (hostname: string, options: { all?: boolean; family?: number } | number, callback: (...args: unknown[]) => void): void => {
    const all = typeof options === 'object' && options?.all === true;
    lookup(hostname, { all: true }, (error, addresses) => {
      if (error) return callback(error);
      if (!addresses.length) return callback(Object.assign(new Error(`${hostname} does not resolve`), { code: 'ENOTFOUND' }));
      if (allow !== true) {
        const bad = addresses.find((a) => !isAllowedAddress(a.address, allow));
        if (bad) return callback(new BlockedAddressError(`refused to connect to ${hostname} (${bad.address}): not a public address`));
      }
      if (all) callback(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
