import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const dns2 = require('dns2');

/** A DNS server on 127.0.0.1 answering PTR and A/AAAA records from tables (the real wire format, over UDP). */
export async function startLocalDns(records: { ptr: Record<string, string[]>; a: Record<string, string[]> }): Promise<{ address: string; close: () => Promise<void> }> {
  const { Packet } = dns2;
  const server = dns2.createServer({
    udp: true,
    handle: (request: { questions: { name: string; type: number }[] }, send: (r: unknown) => void) => {
      const response = Packet.createResponseFromRequest(request);
      const [q] = request.questions;
      const name = q.name.toLowerCase();
      if (q.type === Packet.TYPE.PTR) for (const domain of records.ptr[name] ?? []) response.answers.push({ name: q.name, type: Packet.TYPE.PTR, class: Packet.CLASS.IN, ttl: 60, domain });
      if (q.type === Packet.TYPE.A) for (const address of records.a[name] ?? []) response.answers.push({ name: q.name, type: Packet.TYPE.A, class: Packet.CLASS.IN, ttl: 60, address });
      send(response);
    },
  });
  await server.listen({ udp: { port: 0, address: '127.0.0.1', type: 'udp4' } });
  const { port } = server.addresses().udp as AddressInfo;
  return { address: `127.0.0.1:${port}`, close: () => server.close() };
}

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
