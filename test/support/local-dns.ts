import type { AddressInfo } from 'node:net';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const dns2 = require('dns2');

export interface DnsRecords {
  /** PTR names by `d.c.b.a.in-addr.arpa` name. */
  ptr?: Record<string, string[]>;
  /** IPv4 addresses by (lower-case) name. */
  a?: Record<string, string[]>;
  /** IPv6 addresses by (lower-case) name. */
  aaaa?: Record<string, string[]>;
}

/**
 * A DNS server on 127.0.0.1 answering PTR, A and AAAA records from tables (the real wire format,
 * over UDP); any other name has no record. The tables may be changed while it runs.
 */
export async function startLocalDns(records: DnsRecords): Promise<{ address: string; records: DnsRecords; queries: string[]; close: () => Promise<void> }> {
  const { Packet } = dns2;
  const queries: string[] = [];
  const server = dns2.createServer({
    udp: true,
    handle: (request: { questions: { name: string; type: number }[] }, send: (r: unknown) => void) => {
      const response = Packet.createResponseFromRequest(request);
      const [q] = request.questions;
      const name = q.name.toLowerCase();
      queries.push(name);
      const answer = (type: number, field: 'domain' | 'address', values: string[] | undefined) => {
        for (const value of values ?? []) response.answers.push({ name: q.name, type, class: Packet.CLASS.IN, ttl: 60, [field]: value });
      };
      if (q.type === Packet.TYPE.PTR) answer(Packet.TYPE.PTR, 'domain', records.ptr?.[name]);
      if (q.type === Packet.TYPE.A) answer(Packet.TYPE.A, 'address', records.a?.[name]);
      if (q.type === Packet.TYPE.AAAA) answer(Packet.TYPE.AAAA, 'address', records.aaaa?.[name]);
      send(response);
    },
  });
  await server.listen({ udp: { port: 0, address: '127.0.0.1', type: 'udp4' } });
  const { port } = server.addresses().udp as AddressInfo;
  return { address: `127.0.0.1:${port}`, records, queries, close: () => server.close() };
}
