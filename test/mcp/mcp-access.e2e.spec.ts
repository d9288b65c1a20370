import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { ALL_SCOPES, type Scope } from '@libs/auth';
import { startTestApi, type TestApi } from '../support/test-api';

let api: TestApi;
let base: string;

beforeAll(async () => {
  api = await startTestApi();
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(api.app.getHttpServer().address() as AddressInfo).port}`;
}, 60_000);
afterAll(() => api?.close());

async function connect(headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } }));
  return client;
}

describe('MCP smoke', () => {
  it('lists tools for a key', async () => {
    const org = await api.organization({ scopes: ['read:brands'] as Scope[] });
    const client = await connect({ 'x-api-key': org.key });
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toEqual(['list_brands']);
    const r = await client.callTool({ name: 'list_brands', arguments: {} });
    console.log(JSON.stringify(r));
    const r2 = await client.callTool({ name: 'list_opportunities', arguments: {} });
    console.log(JSON.stringify(r2));
    await client.close();
    void ALL_SCOPES;
  });
});
