import type { AddressInfo } from 'node:net';
import { Client, ClientCredentialsProvider, SdkHttpError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Redis } from 'ioredis';
import { OAuthClientsRepository, publishRevocation, sha256, type Scope } from '@libs/auth';
import { UsageRecorder } from '@libs/usage';
import { WorkerPartModule } from '../../apps/worker/src/worker.module';
import { startTestApi, type TestApi } from '../support/test-api';

/**
 * The MCP server's gate, scopes, tenancy and validation through the official MCP client SDK over
 * real HTTP (the API listening on 127.0.0.1, the worker's projectors in the same process).
 */
let api: TestApi;
let base: string;
let org: { id: number; key: string; keyId: number };
let other: { id: number; key: string; keyId: number };
let brand: number;
let foreignBrand: number;
const clients: Client[] = [];

beforeAll(async () => {
  // A free-tier organisation gets 4 requests a minute, for the 429.
  api = await startTestApi({ RATE_LIMIT_TIERS: '{"free":{"perMinute":4,"burst":0}}' }, [WorkerPartModule.forRoot()]);
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(api.app.getHttpServer().address() as AddressInfo).port}`;
  org = await api.organization();
  other = await api.organization();
  brand = (await api.tenancy.createBrand({ organizationId: org.id, name: 'Acme', domain: 'acme.com' })).id;
  foreignBrand = (await api.tenancy.createBrand({ organizationId: other.id, name: 'Other', domain: 'other.com' })).id;
}, 120_000);
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await api?.close();
});

async function connect(headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } }));
  clients.push(client);
  return client;
}
const keyFor = async (scopes: Scope[], organizationId = org.id, tier?: 'free') => (await api.keys.create({ organizationId, scopes, tier })).key;
const toolNames = async (client: Client) => (await client.listTools()).tools.map((t) => t.name).sort();
type ToolResult = { isError?: boolean; content: { type: string; text?: string }[]; structuredContent?: Record<string, unknown>; _meta?: { error?: { code: string; details?: unknown } } };
const call = async (client: Client, name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as ToolResult;
const text = (r: ToolResult) => r.content.map((c) => c.text ?? '').join('\n');

/** A raw JSON-RPC POST (2025-06-18, stateless) for what the SDK client would never send. */
async function rawPost(body: string, headers: Record<string, string>) {
  const res = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18', ...headers },
    body,
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

describe('MCP: who may call what', () => {
  it('lists to each credential the tools its scopes allow, and nothing else', async () => {
    expect(await toolNames(await connect({ 'x-api-key': await keyFor(['read:brands']) }))).toEqual(['list_brands']);
    expect(await toolNames(await connect({ 'x-api-key': await keyFor(['read:opportunities']) }))).toEqual(['explain_opportunity', 'list_opportunities', 'what_changed']);
    expect(await toolNames(await connect({ 'x-api-key': await keyFor(['write:opportunities', 'write:audits']) }))).toEqual(['start_audit', 'transition_opportunity']);
    expect(await toolNames(await connect({ 'x-api-key': await keyFor(['read:webhooks']) }))).toEqual([]);
    const all = await (await connect({ 'x-api-key': org.key })).listTools();
    for (const tool of all.tools) {
      expect(tool.description).toMatch(/Needs the scope [a-z:-]+\./);
      expect(tool.outputSchema).toBeDefined();
      expect(tool.inputSchema.additionalProperties).toBe(false);
      expect(tool.annotations).toEqual(expect.objectContaining({ readOnlyHint: expect.any(Boolean), destructiveHint: false, idempotentHint: expect.any(Boolean), openWorldHint: expect.any(Boolean) }));
    }
    const transition = all.tools.find((t) => t.name === 'transition_opportunity')!;
    expect(transition.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: false });
    expect(transition.inputSchema.required).toEqual(expect.arrayContaining(['opportunityId', 'toStatus', 'expectedVersion']));
  });

  it('answers a tool the credential lacks the scope for with a tool error naming the scope', async () => {
    const client = await connect({ 'x-api-key': await keyFor(['read:brands']) });
    const r = await call(client, 'list_opportunities', {});
    expect(r.isError).toBe(true);
    expect(text(r)).toBe('INSUFFICIENT_SCOPE: This operation needs the scope read:opportunities');
    expect(r._meta?.error?.code).toBe('INSUFFICIENT_SCOPE');
    const write = await call(client, 'transition_opportunity', { opportunityId: 1, toStatus: 'triaged', expectedVersion: 0 });
    expect(text(write)).toContain('write:opportunities');
  });

  it("treats another tenant's brand and opportunity as not found, as the API does", async () => {
    const client = await connect({ 'x-api-key': org.key });
    const brands = await call(client, 'list_brands', {});
    expect((brands.structuredContent!.brands as { id: number }[]).map((b) => b.id)).toEqual([brand]);
    for (const [name, args] of [
      ['list_opportunities', { brandId: foreignBrand }],
      ['what_changed', { from: '2026-01-01T00:00:00Z', to: '2026-02-01T00:00:00Z', brandId: foreignBrand }],
      ['start_audit', { brandId: foreignBrand, queries: ['best CRM'] }],
    ] as const) {
      const r = await call(client, name, args);
      expect([name, text(r)]).toEqual([name, `NOT_FOUND: Brand ${foreignBrand} not found`]);
    }
    const theirs = await api.request({ method: 'POST', url: '/api/v1/opportunities', key: other.key, body: { brandId: foreignBrand, type: 'sov_drop', severity: 'high', title: 'Theirs' } });
    expect(theirs.status).toBe(201);
    const id = theirs.body.data.id as number;
    expect(text(await call(client, 'explain_opportunity', { opportunityId: id }))).toBe(`NOT_FOUND: Opportunity ${id} not found`);
    expect(text(await call(client, 'transition_opportunity', { opportunityId: id, toStatus: 'triaged', expectedVersion: 0 }))).toBe(`NOT_FOUND: Opportunity ${id} not found`);
    await expect(client.readResource({ uri: `brand://${foreignBrand}` })).rejects.toThrow(/Brand \d+ not found/);
    const mine = await client.readResource({ uri: `brand://${brand}` });
    expect(JSON.parse((mine.contents[0] as { text: string }).text)).toMatchObject({ id: brand, name: 'Acme', domain: 'acme.com' });
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual([`brand://${brand}`]);
  });

  it('moves an opportunity only from the version the caller read: a stale one is a conflict', async () => {
    const client = await connect({ 'x-api-key': org.key });
    const created = await api.request({ method: 'POST', url: '/api/v1/opportunities', key: org.key, body: { brandId: brand, type: 'sov_drop', severity: 'high', title: 'Share of voice fell' } });
    const id = created.body.data.id as number;
    const explained = await call(client, 'explain_opportunity', { opportunityId: id });
    const seen = explained.structuredContent!.opportunity as { version: number; status: string; allowedMoves: string[] };
    expect(seen).toMatchObject({ status: 'detected', allowedMoves: ['triaged', 'assigned', 'dismissed'] });
    expect(explained.structuredContent!.history).toEqual([expect.objectContaining({ position: 0, type: 'opportunity.detected' })]);
    // Someone else moves it first (through the REST API).
    expect((await api.request({ method: 'POST', url: `/api/v1/opportunities/${id}/transition`, key: org.key, body: { toStatus: 'triaged' } })).status).toBe(200);
    const stale = await call(client, 'transition_opportunity', { opportunityId: id, toStatus: 'dismissed', expectedVersion: seen.version, reason: 'duplicate' });
    expect(stale.isError).toBe(true);
    expect(text(stale)).toMatch(/^CONFLICT: /);
    const fresh = (await call(client, 'explain_opportunity', { opportunityId: id })).structuredContent!.opportunity as { version: number };
    const moved = await call(client, 'transition_opportunity', { opportunityId: id, toStatus: 'dismissed', expectedVersion: fresh.version, reason: 'duplicate' });
    expect(moved.isError).toBeFalsy();
    expect(moved.structuredContent!.opportunity).toMatchObject({ id, status: 'dismissed', allowedMoves: [] });
    const invalid = await call(client, 'transition_opportunity', { opportunityId: id, toStatus: 'triaged', expectedVersion: fresh.version + 1 });
    expect(text(invalid)).toMatch(/^INVALID_TRANSITION: /);
    const rest = await api.request({ url: `/api/v1/opportunities/${id}/events`, key: org.key });
    const history = (await call(client, 'explain_opportunity', { opportunityId: id })).structuredContent!.history as { type: string; reason: string | null; actor: string | null }[];
    expect(history.map((e) => [e.type, e.reason, e.actor])).toEqual(rest.body.data.map((e: { type: string; reason: string | null; actor: string | null }) => [e.type, e.reason, e.actor]));
    // what_changed reads the same events from the event store, in the window.
    const changed = await call(client, 'what_changed', { from: new Date(Date.now() - 60_000).toISOString(), to: new Date(Date.now() + 1000).toISOString(), brandId: brand });
    const detections = changed.structuredContent!.detections as { opportunityId: number }[];
    const lifecycle = changed.structuredContent!.lifecycle as { opportunityId: number; type: string; data: { to?: string } }[];
    expect(detections.map((d) => d.opportunityId)).toContain(id);
    expect(lifecycle.filter((e) => e.opportunityId === id).map((e) => e.type)).toEqual(['opportunity.transitioned', 'opportunity.transitioned']);
    const before = await call(client, 'what_changed', { from: '2020-01-01T00:00:00Z', to: '2020-02-01T00:00:00Z' });
    expect(before.structuredContent).toMatchObject({ detections: [], lifecycle: [] });
  });

  it('refuses arguments like request bodies: unknown fields, out-of-range values, prototype names, missing version', async () => {
    const client = await connect({ 'x-api-key': org.key });
    const cases: [string, Record<string, unknown>][] = [
      ['list_brands', { extra: 1 }],
      ['list_opportunities', { limit: 0 }],
      ['list_opportunities', { limit: 201 }],
      ['list_opportunities', { brandId: 1.5 }],
      ['list_opportunities', { status: ['open'] }],
      ['list_opportunities', { constructor: 'x' }],
      ['transition_opportunity', { opportunityId: 1, toStatus: 'triaged' }],
      ['start_audit', { brandId: brand, queries: [] }],
      ['start_audit', { brandId: brand, queries: ['x'.repeat(1001)] }],
      ['what_changed', { from: 'yesterday', to: '2026-01-01T00:00:00Z' }],
      ['search_answers', { brandId: brand, text: '' }],
      // The market arguments, by the REST rules.
      ['visibility_summary', { brandId: brand, country: 'XX' }],
      ['compare_periods', { brandId: brand, startDate: '2026-01-01', endDate: '2026-01-31', language: 'zz' }],
      ['top_citation_sources', { brandId: brand, country: 'DEU' }],
      ['citation_gaps', { brandId: brand, language: 'de-x-private' }],
      ['search_answers', { brandId: brand, text: 'crm', country: 1 }],
      ['start_audit', { brandId: brand, queries: ['x'], country: 'ZZ' }],
    ];
    for (const [name, args] of cases) {
      const r = await call(client, name, args);
      expect([name, args, r.isError]).toEqual([name, args, true]);
      expect(text(r)).toMatch(/validation error|VALIDATION_ERROR/i);
    }
    expect(text(await call(client, 'what_changed', { from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' }))).toBe('VALIDATION_ERROR: The request is not valid');
    const country = await call(client, 'visibility_summary', { brandId: brand, country: 'XX' });
    expect(JSON.stringify(country._meta?.error ?? text(country))).toContain('country must be an ISO 3166-1 alpha-2 country code, e.g. DE');
    // A `__proto__` key, which a client SDK would never serialise, sent as raw JSON.
    const raw = await rawPost('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"list_brands","arguments":{"__proto__":{"clientId":1}}}}', { 'x-api-key': org.key });
    expect(raw.status).toBe(200);
    const answer = JSON.parse(raw.text.replace(/^(event: message\n)?data: /, '')) as { id: number; result: ToolResult };
    expect(answer.id).toBe(7);
    expect(answer.result.isError).toBe(true);
    expect(text(answer.result)).toBe('VALIDATION_ERROR: The request is not valid');
    expect(answer.result._meta?.error).toMatchObject({ details: { fields: [{ field: 'params.arguments.__proto__', message: 'params.arguments.__proto__ should not exist' }] } });
  });
});

describe('MCP: credentials', () => {
  it('answers no credential with 401, WWW-Authenticate naming the RFC 9728 metadata, which names the authorization server', async () => {
    const res = await rawPost('{"jsonrpc":"2.0","id":1,"method":"tools/list"}', {});
    expect(res.status).toBe(401);
    const challenge = res.headers.get('www-authenticate')!;
    expect(challenge).toContain(`resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`);
    expect(JSON.parse(res.text)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000, data: { error: { code: 'UNAUTHORIZED' } } } });
    const metadata = (await (await fetch(`${base}/.well-known/oauth-protected-resource/mcp`)).json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({ resource: `${base}/mcp`, authorization_servers: [base], bearer_methods_supported: ['header'] });
    expect(metadata.scopes_supported).toBeUndefined();
    const server = (await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(server).toMatchObject({ issuer: base, token_endpoint: `${base}/api/oauth/token`, code_challenge_methods_supported: ['S256'] });
    await expect(connect({})).rejects.toMatchObject({ data: { status: 401 } });
    expect((await fetch(`${base}/mcp`, { headers: { 'x-api-key': org.key } })).status).toBe(405);
  });

  it('refuses a revoked key from the next request on', async () => {
    const created = await api.keys.create({ organizationId: org.id, scopes: ['read:brands'] });
    const client = await connect({ 'x-api-key': created.key });
    expect((await call(client, 'list_brands', {})).isError).toBeFalsy();
    await api.keys.revoke(created.id);
    const redis = new Redis(api.config.redisUrl);
    await publishRevocation(redis, api.config.redisPrefix, sha256(created.key));
    redis.disconnect();
    let refused: unknown = null;
    for (let i = 0; i < 20 && refused === null; i++) {
      await client.callTool({ name: 'list_brands', arguments: {} }).catch((e: unknown) => (refused = e));
      if (refused === null) await new Promise((r) => setTimeout(r, 100));
    }
    expect(refused).toBeInstanceOf(SdkHttpError);
    expect((refused as SdkHttpError).data).toMatchObject({ status: 401 });
  });

  it('takes an OAuth access token, found by the SDK from the 401 and the metadata (client credentials)', async () => {
    const oauth = await new OAuthClientsRepository(api.dataSource).create({ organizationId: org.id, scopes: ['read:brands', 'read:opportunities'], name: 'Assistant' });
    const client = new Client({ name: 'e2e-oauth', version: '1.0.0' });
    const authProvider = new ClientCredentialsProvider({ clientId: oauth.clientId, clientSecret: oauth.clientSecret, expectedIssuer: base });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider }));
    clients.push(client);
    expect(await toolNames(client)).toEqual(['explain_opportunity', 'list_brands', 'list_opportunities', 'what_changed']);
    const brands = await call(client, 'list_brands', {});
    expect((brands.structuredContent!.brands as { id: number }[]).map((b) => b.id)).toEqual([brand]);
    // The same with a token taken by hand.
    const token = await api.request({ method: 'POST', url: '/api/oauth/token', body: { grant_type: 'client_credentials', client_id: oauth.clientId, client_secret: oauth.clientSecret, scope: 'read:brands' } });
    const manual = await connect({ authorization: `Bearer ${token.body.access_token}` });
    expect(await toolNames(manual)).toEqual(['list_brands']);
  });

  it('rate-limits like the API: over the limit the call is a 429 with Retry-After, a JSON-RPC error', async () => {
    const free = await api.organization({ tier: 'free' });
    const client = await connect({ 'x-api-key': free.key });
    let limited: unknown = null;
    for (let i = 0; i < 10 && limited === null; i++) await client.callTool({ name: 'list_brands', arguments: {} }).catch((e: unknown) => (limited = e));
    expect(limited).toBeInstanceOf(SdkHttpError);
    expect((limited as SdkHttpError).data).toMatchObject({ status: 429 });
    const res = await rawPost('{"jsonrpc":"2.0","id":1,"method":"tools/list"}', { 'x-api-key': free.key });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(res.headers.get('x-ratelimit-limit')).toBe('4');
    expect(JSON.parse(res.text)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000, data: { error: { code: 'RATE_LIMITED' } } } });
  });

  it('counts each tool call in /usage under the tool name', async () => {
    const key = await api.keys.create({ organizationId: other.id, scopes: ['read:brands', 'read:usage', 'read:opportunities'] });
    const client = await connect({ 'x-api-key': key.key });
    await call(client, 'list_brands', {});
    await call(client, 'list_brands', {});
    await call(client, 'list_opportunities', {});
    await api.app.get(UsageRecorder).flush();
    const usage = await api.request({ url: '/api/v1/usage?days=1', key: key.key });
    expect(usage.status).toBe(200);
    const endpoints = usage.body.data.endpoints as { method: string; route: string; requests: number }[];
    const byRoute = new Map(endpoints.map((e) => [e.route, e]));
    expect(byRoute.get('mcp:list_brands')).toMatchObject({ method: 'POST', requests: 2 });
    expect(byRoute.get('mcp:list_opportunities')).toMatchObject({ method: 'POST', requests: 1 });
  });
});
