import type { Server } from 'node:http';
import { signatureHeaders } from 'web-bot-auth';
import { signerFromJWK } from 'web-bot-auth/crypto';
import { addDays, utcDay, wilsonInterval } from '@libs/metrics';
import { startTestApi, type TestApi } from '../support/test-api';
import { ptrName, startLocalDns, startLocalHttp } from './local-servers';

/**
 * Agent analytics end to end: a hand-counted batch of visits through POST /ingest (verified by
 * the shipped OpenAI ranges, by forward-confirmed reverse DNS against a local DNS server, and by
 * Web Bot Auth signatures against a local key directory; robots.txt from a local server), then
 * every read's figures against the counts written down below.
 */
// The RFC 9421 Appendix B.1.4 test key (also web-bot-auth's example key).
const KEY = { kty: 'OKP', crv: 'Ed25519', kid: 'test-key-ed25519', d: 'n4Ni-HpISpVObnQMW0wOhCKROaIKqKtW_2ZYb2p9KcU', x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs' };
const { d: _private, ...PUBLIC_KEY } = KEY;

let api: TestApi;
let dns: Awaited<ReturnType<typeof startLocalDns>>;
let web: Awaited<ReturnType<typeof startLocalHttp>>;
let org: { id: number; key: string };
let other: { id: number; key: string };
let brand: { id: number };
const today = utcDay(Date.now());
const D1 = addDays(today, -1);
const D2 = addDays(today, -2);
const GPT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';
const GOOGLE = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const CLAUDE = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)';
const CHATGPT_USER = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot';
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

const entry = (day: string, ip: string, userAgent: string, path: string, status = 200, extra: Record<string, unknown> = {}) => ({
  timestamp: `${day}T10:00:00Z`,
  method: 'GET',
  host: 'www.acme.example',
  path,
  status,
  ip,
  userAgent,
  ...extra,
});

async function signed(path: string): Promise<Record<string, string>> {
  const now = new Date();
  const headers = await signatureHeaders({ method: 'GET', url: `https://www.acme.example${path}`, headers: new Headers() }, await signerFromJWK(KEY), { created: now, expires: new Date(now.getTime() + 300_000) });
  return { signature: headers['Signature'], 'signature-input': headers['Signature-Input'] };
}

async function fixture(): Promise<unknown[]> {
  const valid = await signed('/docs');
  const tampered = await signed('/docs-x');
  // One character of the signature changed: the bytes no longer verify.
  const sig = tampered.signature;
  const i = sig.indexOf(':') + 5;
  tampered.signature = sig.slice(0, i) + (sig[i] === 'A' ? 'B' : 'A') + sig.slice(i + 1);
  return [
    entry(D1, '20.171.206.12', GPT, '/pricing'), // 1 GPTBot, in OpenAI's published range: verified
    entry(D1, '20.171.206.13', GPT, '/private/a?x=1'), // 2 verified; robots.txt disallows /private/ to GPTBot
    entry(D1, '203.0.113.5', GPT, '/pricing'), // 3 "GPTBot" outside the ranges: spoofed
    entry(D2, '66.249.66.1', GOOGLE, '/pricing', 404), // 4 Googlebot, FCrDNS passes: verified; a 404
    entry(D2, '66.249.99.9', GOOGLE, '/blog/x'), // 5 "Googlebot" whose PTR is not Google's: spoofed
    entry(D2, '192.0.2.44', CLAUDE, '/blog/x', 500), // 6 ClaudeBot: Anthropic publishes no means, unverifiable; a 500
    entry(D1, '198.51.100.7', CHATGPT_USER, '/docs', 200, { headers: valid }), // 7 signed: verified by Web Bot Auth
    entry(D1, '198.51.100.8', CHATGPT_USER, '/docs-x', 200, { headers: tampered }), // 8 tampered signature: spoofed
    entry(D1, '192.0.2.10', CHROME, '/pricing', 200, { referer: 'https://chatgpt.com/' }), // 9 a person from ChatGPT: AI referral
    entry(D1, '192.0.2.11', CHROME, '/pricing'), // 10 a person: neither
    entry(D1, '20.171.206.14', GPT, '/pricing', 200, { host: 'other.example' }), // 11 verified GPTBot on a host of no brand
  ];
}

const get = (url: string, key = org.key) => api.request({ url, key });

beforeAll(async () => {
  dns = await startLocalDns({
    ptr: { [ptrName('66.249.66.1')]: ['crawl-66-249-66-1.googlebot.com'], [ptrName('66.249.99.9')]: ['crawl.googlebot.com.evil.example'] },
    a: { 'crawl-66-249-66-1.googlebot.com': ['66.249.66.1'], 'crawl.googlebot.com.evil.example': ['66.249.99.9'] },
  });
  web = await startLocalHttp({
    '/keys': { type: 'application/http-message-signatures-directory+json', body: JSON.stringify({ keys: [PUBLIC_KEY] }) },
    '/robots/www.acme.example': { body: 'User-agent: GPTBot\nDisallow: /private/\n\nUser-agent: *\nAllow: /\n' },
  });
  api = await startTestApi({
    AGENT_DNS_SERVERS: dns.address,
    AGENT_KEY_DIRECTORIES: `chatgpt-user=${web.url}/keys`,
    AGENT_ROBOTS_URL_TEMPLATE: `${web.url}/robots/{host}`,
    // The local site and key directory are on loopback, which the egress guard refuses otherwise.
    AGENT_ALLOWED_ADDRESSES: '127.0.0.1',
  });
  org = await api.organization();
  other = await api.organization();
  brand = await api.tenancy.createBrand({ organizationId: org.id, name: 'Acme', domain: 'acme.example', competitors: [] });
  const res = await api.request({ method: 'POST', url: '/api/v1/agent-analytics/ingest', key: org.key, body: await fixture() });
  expect(res.status).toBe(202);
  expect(res.body.data).toEqual({ accepted: 11, rejected: 0, botVisits: 9, aiReferrals: 1, otherVisits: 1, rejections: [] });
});

afterAll(async () => {
  await api?.close();
  await dns?.close();
  await new Promise((r) => (web?.server as Server | undefined)?.close(r));
});

const rate = (k: number, n: number) => ({ value: k / n, n, low: wilsonInterval(k, n)!.low, high: wilsonInterval(k, n)!.high });

describe('agent analytics', () => {
  it('overview: visits, verified (ranges, FCrDNS, Web Bot Auth), spoofed, bots, pages, AI referrals', async () => {
    const res = await get('/api/v1/agent-analytics/overview');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      startDate: addDays(today, -29),
      endDate: today,
      visits: 9,
      verifiedVisits: 5,
      spoofedVisits: 3,
      unverifiableVisits: 1,
      verifiedShare: rate(5, 9),
      uniqueBots: 4,
      pagesCrawled: 6,
      aiReferralVisits: 1,
    });
    // The brand's domains only (entry 11 is another host's); one host; another organisation sees nothing.
    expect((await get(`/api/v1/agent-analytics/overview?brandId=${brand.id}`)).body.data).toMatchObject({ visits: 8, verifiedVisits: 4, pagesCrawled: 5 });
    expect((await get('/api/v1/agent-analytics/overview?host=other.example')).body.data).toMatchObject({ visits: 1, verifiedVisits: 1, aiReferralVisits: 0 });
    expect((await get('/api/v1/agent-analytics/overview', other.key)).body.data).toMatchObject({ visits: 0, uniqueBots: 0, verifiedShare: { value: null, n: 0 } });
  });

  it('visits record how each claim was checked', async () => {
    const res = await get('/api/v1/agent-analytics/bot-visits?limit=20');
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ total: 9, limit: 20, offset: 0, hasMore: false });
    const by = (ip: string) => res.body.data.find((v: { ip: string }) => v.ip === ip);
    expect(by('20.171.206.12')).toMatchObject({ botName: 'GPTBot', operator: 'OpenAI', category: 'training', verification: 'verified', verifiedBy: 'ip-range', brandId: brand.id, url: 'https://www.acme.example/pricing', robotsDisallowed: false });
    expect(by('20.171.206.13')).toMatchObject({ verification: 'verified', robotsDisallowed: true });
    expect(by('203.0.113.5')).toMatchObject({ botName: 'GPTBot', verification: 'spoofed', verifiedBy: null });
    expect(by('66.249.66.1')).toMatchObject({ botName: 'Googlebot', verification: 'verified', verifiedBy: 'fcrdns', status: 404 });
    expect(by('66.249.99.9')).toMatchObject({ botName: 'Googlebot', verification: 'spoofed' });
    expect(by('192.0.2.44')).toMatchObject({ botName: 'ClaudeBot', verification: 'unverifiable' });
    expect(by('198.51.100.7')).toMatchObject({ botName: 'ChatGPT-User', verification: 'verified', verifiedBy: 'web-bot-auth' });
    expect(by('198.51.100.8')).toMatchObject({ botName: 'ChatGPT-User', verification: 'spoofed' });
    expect(by('20.171.206.14')).toMatchObject({ host: 'other.example', brandId: null, verification: 'verified' });
    // The key directory was fetched once and cached; robots.txt once for the brand's host.
    expect(web.hits.get('/keys')).toBe(1);
    expect(web.hits.get('/robots/www.acme.example')).toBe(1);
  });

  it('bot-visits pages, filters by bot and window', async () => {
    const page = await get('/api/v1/agent-analytics/bot-visits?limit=2&offset=2');
    expect(page.body.meta).toEqual({ total: 9, limit: 2, offset: 2, hasMore: true });
    expect(page.body.data).toHaveLength(2);
    expect((await get('/api/v1/agent-analytics/bot-visits?botName=gptbot')).body.meta.total).toBe(4);
    expect((await get('/api/v1/agent-analytics/bot-visits?sinceDays=1')).body.meta.total).toBe(0);
    expect((await get('/api/v1/agent-analytics/bot-visits?sinceDays=2')).body.meta.total).toBe(6);
  });

  it('visits: days, botName and URL patterns', async () => {
    expect((await get('/api/v1/agent-analytics/visits?url=/blog/*')).body.meta.total).toBe(2);
    expect((await get('/api/v1/agent-analytics/visits?url=/pricing')).body.meta.total).toBe(4);
    expect((await get('/api/v1/agent-analytics/visits?url=https://other.example/*')).body.meta.total).toBe(1);
    expect((await get('/api/v1/agent-analytics/visits?url=/private/*&botName=GPTBot')).body.data.map((v: { path: string }) => v.path)).toEqual(['/private/a?x=1']);
    expect((await get('/api/v1/agent-analytics/visits?days=2')).body.meta.total).toBe(6);
  });

  it('bots: per agent, verification and the crawl_block signal', async () => {
    const res = await get('/api/v1/agent-analytics/bots');
    expect(res.status).toBe(200);
    const by = (name: string) => res.body.data.find((b: { botName: string }) => b.botName === name);
    expect(res.body.data.map((b: { botName: string }) => b.botName)).toEqual(['GPTBot', 'ChatGPT-User', 'Googlebot', 'ClaudeBot']);
    expect(by('GPTBot')).toMatchObject({ operator: 'OpenAI', category: 'training', visits: 4, verifiedVisits: 3, spoofedVisits: 1, unverifiableVisits: 0, verifiedShare: rate(3, 4), verification: 'verified', lastSeen: `${D1}T10:00:00.000Z` });
    expect(by('GPTBot').crawlBlock).toEqual({ errorShare: { value: 0, n: 4, low: 0, high: wilsonInterval(0, 4)!.high }, disallowedShare: rate(1, 4), errorVisits: 0, disallowedVisits: 1 });
    expect(by('Googlebot')).toMatchObject({ category: 'search', visits: 2, verifiedVisits: 1, spoofedVisits: 1, crawlBlock: { errorShare: rate(1, 2), errorVisits: 1, disallowedVisits: 0 } });
    expect(by('ClaudeBot')).toMatchObject({ visits: 1, verification: 'unverifiable', crawlBlock: { errorShare: { value: 1, n: 1 } } });
    expect(by('ChatGPT-User')).toMatchObject({ category: 'user-triggered', visits: 2, verifiedVisits: 1, spoofedVisits: 1 });
  });

  it('pages: most crawled first, per agent with its crawl_block', async () => {
    const res = await get('/api/v1/agent-analytics/pages?limit=2');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(2);
    const [pricing, blog] = res.body.data;
    expect(pricing).toMatchObject({ host: 'www.acme.example', path: '/pricing', visits: 3, crawlBlock: { errorVisits: 1, errorShare: rate(1, 3) } });
    expect(pricing.bots).toEqual([
      { botName: 'GPTBot', visits: 2, crawlBlock: expect.objectContaining({ errorVisits: 0, disallowedVisits: 0 }) },
      { botName: 'Googlebot', visits: 1, crawlBlock: expect.objectContaining({ errorVisits: 1, errorShare: rate(1, 1) }) },
    ]);
    expect(blog).toMatchObject({ path: '/blog/x', visits: 2, crawlBlock: { errorVisits: 1 } });
    const all = (await get('/api/v1/agent-analytics/pages')).body.data;
    expect(all).toHaveLength(6);
    expect(all.find((p: { path: string }) => p.path === '/private/a').bots[0].crawlBlock).toMatchObject({ disallowedVisits: 1, disallowedShare: rate(1, 1) });
  });

  it('trends: daily visits per category, verified and unverified', async () => {
    const res = await get('/api/v1/agent-analytics/trends?days=3');
    expect(res.status).toBe(200);
    expect(res.body.data.days).toEqual([
      { date: D2, visits: 3, byCategory: { training: 1, search: 2, 'user-triggered': 0, agent: 0 }, verified: 1, unverified: 2, spoofed: 1 },
      { date: D1, visits: 6, byCategory: { training: 4, search: 0, 'user-triggered': 2, agent: 0 }, verified: 4, unverified: 2, spoofed: 2 },
      { date: today, visits: 0, byCategory: { training: 0, search: 0, 'user-triggered': 0, agent: 0 }, verified: 0, unverified: 0, spoofed: 0 },
    ]);
  });

  it('re-sending a batch with the same Idempotency-Key counts it once; another body with that key is 409', async () => {
    const batch = [entry(D1, '20.171.207.1', GPT, '/idem')];
    const first = await api.request({ method: 'POST', url: '/api/v1/agent-analytics/ingest', key: org.key, body: batch, headers: { 'idempotency-key': 'batch-42' } });
    const again = await api.request({ method: 'POST', url: '/api/v1/agent-analytics/ingest', key: org.key, body: batch, headers: { 'idempotency-key': 'batch-42' } });
    expect(first.status).toBe(202);
    expect(again.status).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await get('/api/v1/agent-analytics/visits?url=/idem')).body.meta.total).toBe(1);
    expect((await get('/api/v1/agent-analytics/pages?limit=200')).body.data.find((p: { path: string }) => p.path === '/idem').visits).toBe(1);
    const conflict = await api.request({ method: 'POST', url: '/api/v1/agent-analytics/ingest', key: org.key, body: [entry(D1, '20.171.207.2', GPT, '/idem')], headers: { 'idempotency-key': 'batch-42' } });
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.code).toBe('CONFLICT');
    // The same key in another organisation is another batch.
    expect((await api.request({ method: 'POST', url: '/api/v1/agent-analytics/ingest', key: other.key, body: batch, headers: { 'idempotency-key': 'batch-42' } })).headers['idempotent-replayed']).toBeUndefined();
  });

  it('takes NDJSON, and rejects entries older than the retention period one by one', async () => {
    const old = entry(addDays(today, -500), '20.171.207.3', GPT, '/old');
    const body = [JSON.stringify(entry(D1, '20.171.207.4', GPT, '/ndjson')), '', JSON.stringify(old)].join('\n');
    const res = await api.request({ method: 'POST', url: '/api/v1/agent-analytics/ingest', key: other.key, body, headers: { 'content-type': 'application/x-ndjson' } });
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ accepted: 1, rejected: 1, botVisits: 1, rejections: [{ index: 2, reason: 'the visit is older than the retention period (400 days)' }] });
  });
});

describe('agent analytics: bad input and access', () => {
  it.each([
    ['bot-visits?sinceDays=0', 'sinceDays'],
    ['bot-visits?sinceDays=91', 'sinceDays'],
    ['bot-visits?limit=501', 'limit'],
    ['bot-visits?offset=-1', 'offset'],
    ['overview?days=0', 'days'],
    ['overview?days=401', 'days'],
    ['trends?days=1e2', 'days'],
    ['visits?url=blog', 'url'],
    ['visits?url=/a%20b', 'url'],
    ['visits?limit=201', 'limit'],
    ['pages?limit=0', 'limit'],
    ['bots?brandId=x', 'brandId'],
    ['bots?host=a%20b', 'host'],
    ['bots?colour=red', 'colour'],
  ])('%s is 400 naming %s', async (path, field) => {
    const res = await get(`/api/v1/agent-analytics/${path}`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.fields.map((f: { field: string }) => f.field)).toContain(field);
  });

  it("another organisation's brand is 404; no key is 401; a key without the scope is 403", async () => {
    expect((await get(`/api/v1/agent-analytics/overview?brandId=${brand.id}`, other.key)).status).toBe(404);
    expect((await api.request({ url: '/api/v1/agent-analytics/bots' })).status).toBe(401);
    const reader = await api.organization({ scopes: ['read:agent-analytics'] });
    const refused = await api.request({ method: 'POST', url: '/api/v1/agent-analytics/ingest', key: reader.key, body: [] });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'INSUFFICIENT_SCOPE', details: { required: 'write:agent-analytics' } });
    const writer = await api.organization({ scopes: ['write:agent-analytics'] });
    expect((await api.request({ url: '/api/v1/agent-analytics/overview', key: writer.key })).status).toBe(403);
  });

  it('a client-bound key sees only its client’s brands', async () => {
    const client = await api.tenancy.createClient(org.id, 'Client');
    await api.tenancy.createBrand({ organizationId: org.id, clientId: client.id, name: 'Initech', domain: 'initech.example', competitors: [] });
    const bound = await api.keys.create({ organizationId: org.id, scopes: ['read:agent-analytics'], tier: 'enterprise', clientId: client.id });
    expect((await get('/api/v1/agent-analytics/overview', bound.key)).body.data).toMatchObject({ visits: 0 });
    expect((await get(`/api/v1/agent-analytics/overview?brandId=${brand.id}`, bound.key)).status).toBe(404);
  });

  it('refuses malformed batches whole (nothing stored), 10,001 entries, and bodies over the limit', async () => {
    const post = (body: unknown, headers: Record<string, string> = {}) => api.request({ method: 'POST', url: '/api/v1/agent-analytics/ingest', key: other.key, body, headers });
    const before = (await get('/api/v1/agent-analytics/overview', other.key)).body.data.visits;
    const bad = await post([
      entry(D1, '20.171.207.9', GPT, '/fine'),
      entry(D1, '20.171.207.9', GPT, '/x', 200, { timestamp: '2026-02-30T10:00:00Z' }),
      entry(D1, '20.171.207.9', GPT, '/x', 200, { host: 'acme.example:70000' }),
      entry(D1, '20.171.207.9', GPT, '/x', 200, { timestamp: '2099-01-01T00:00:00Z', status: 99 }),
      entry(D1, '20.171.207.9', 'Bot\u0001\ufffd', '/x'),
      'not an object',
    ]);
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.fields.map((f: { field: string }) => f.field)).toEqual(['[1].timestamp', '[2].host', '[3].timestamp', '[3].status', '[4].userAgent', '[5]']);
    expect((await get('/api/v1/agent-analytics/overview', other.key)).body.data.visits).toBe(before);
    // A NUL anywhere in a JSON body is refused by the house validation before the entries are read.
    const nul = await post([entry(D1, '20.171.207.9', GPT, '/fine'), entry(D1, '20.171.207.9', 'Bot\u0000', '/x')]);
    expect(nul.status).toBe(400);
    expect(nul.body.error.details.fields.map((f: { field: string }) => f.field)).toEqual(['[1].userAgent']);
    const ndjson = await post(`${JSON.stringify(entry(D1, '20.171.207.9', GPT, '/fine'))}\n\u0001\u00ff\ufffd garbage`, { 'content-type': 'application/x-ndjson' });
    expect(ndjson.status).toBe(400);
    expect(ndjson.body.error.details.fields).toEqual([{ field: 'line 2', message: 'is not a JSON object' }]);
    const many = await post(Array.from({ length: 10_001 }, () => entry(D1, '1.2.3.4', CHROME, '/')));
    expect(many.status).toBe(400);
    expect(many.body.error.details.fields[0]).toMatchObject({ field: 'body', message: expect.stringContaining('at most 10000 entries') });
    const huge = await post(JSON.stringify([entry(D1, '1.2.3.4', 'x'.repeat(17 * 1024 * 1024), '/')]), { 'content-type': 'application/json' });
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect((await post({ entries: [] })).status).toBe(400);
    expect((await post([], { 'idempotency-key': 'x y' })).status).toBe(400);
    expect((await get('/api/v1/agent-analytics/overview', other.key)).body.data.visits).toBe(before);
  });

  it('NDJSON is refused on other routes', async () => {
    const res = await api.request({ method: 'POST', url: '/api/v1/audit-requests', key: org.key, body: '{}', headers: { 'content-type': 'application/x-ndjson' } });
    expect(res.status).toBe(415);
  });
});
