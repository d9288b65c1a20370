import { Resolver } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import type { LookupFunction } from './address-guard';

/**
 * A DNS-server setting (`*_DNS_SERVERS`): a comma list of `address[:port]` (IPv6 as `[address]:port`
 * or a bare address). Throws a RangeError naming the first bad entry.
 */
export function parseDnsServers(text: string): string[] {
  const servers = text.split(',').map((s) => s.trim()).filter(Boolean);
  if (!servers.length) throw new RangeError('names no server');
  for (const s of servers) {
    const m = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(s) ?? /^([^:]+)(?::(\d{1,5}))?$/.exec(s);
    const host = m ? m[1] : s;
    const port = m?.[2] === undefined ? 53 : Number(m[2]);
    if (!isIP(host) || port < 1 || port > 65535) throw new RangeError(`"${s}" is not address[:port]`);
  }
  return servers;
}

/**
 * A `lookup` that asks the given DNS servers (A and AAAA, in parallel) instead of the system's
 * resolver (getaddrinfo: /etc/hosts, the host's search domains and its internal DNS). Requests
 * made for customers can then resolve public names only, as the world sees them, never names
 * that exist on our own network (a deployment's split-horizon DNS or hosts file). A name with
 * neither record fails with ENOTFOUND.
 */
export function resolverLookup(servers: readonly string[], timeoutMs: number): LookupFunction {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 2 });
  resolver.setServers([...servers]);
  const none = (error: NodeJS.ErrnoException) => (error.code === 'ENODATA' || error.code === 'ENOTFOUND' ? [] : Promise.reject(error));
  return (hostname, _options, callback) => {
    Promise.all([resolver.resolve4(hostname).catch(none), resolver.resolve6(hostname).catch(none)]).then(
      ([v4, v6]) => {
        const addresses: LookupAddress[] = [...v4.map((address) => ({ address, family: 4 })), ...v6.map((address) => ({ address, family: 6 }))];
        if (!addresses.length) return callback(Object.assign(new Error(`queryA ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', syscall: 'queryA', hostname }), []);
        callback(null, addresses);
      },
      (error: NodeJS.ErrnoException) => callback(error, []),
    );
  };
}
