import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
// The DNS server moved to test/support (page audits resolve their sites' names with it too).
export { startLocalDns } from '../support/local-dns';

/** `d.c.b.a.in-addr.arpa` for an IPv4 address. */
export const ptrName = (ip: string) => `${ip.split('.').reverse().join('.')}.in-addr.arpa`;

/** An HTTP server on 127.0.0.1 answering GETs from a table of paths (and counting them). */
export async function startLocalHttp(routes: Record<string, { status?: number; type?: string; body: string }>): Promise<{ url: string; hits: Map<string, number>; server: Server }> {
  const hits = new Map<string, number>();
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const route = routes[path];
    if (!route) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(route.status ?? 200, { 'content-type': route.type ?? 'text/plain' }).end(route.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits, server };
}
