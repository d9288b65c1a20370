import { sectionOf } from '@libs/config';
import { PAGE_AUDITS_CONFIG, PageAuditsWorkerModule } from '@libs/page-audits';
import { startTestApi, type TestApi } from '../support/test-api';
import { until } from '../support/until';
import { HIDDEN_HOST, HiddenServer, LocalSite, METADATA_HOST, SITE_DOMAIN, startSiteDns } from './support/local-site';

/**
 * Page audits end to end: the API and the worker in-process, a brand's site served by the test
 * on 127.0.0.1 under the brand's domain (its name resolved by a local DNS server,
 * PAGE_AUDIT_DNS_SERVERS; the address let through the egress guard by
 * PAGE_AUDIT_ALLOWED_ADDRESSES=127.0.0.1 and nothing else), and a "private" server on 127.0.0.2,
 * also named in the brand's domain, that must never see a connection.
 */
const hidden = new HiddenServer();
const site = new LocalSite(hidden, SITE_DOMAIN, { hidden: HIDDEN_HOST, metadata: METADATA_HOST });
let dns: Awaited<ReturnType<typeof startSiteDns>>;
let api: TestApi;
let org: { id: number; key: string };
let other: { id: number; key: string };
let brand: number;

beforeAll(async () => {
  await hidden.start();
  await site.start();
  dns = await startSiteDns();
  api = await startTestApi(
    { PAGE_AUDIT_ALLOWED_ADDRESSES: '127.0.0.1', PAGE_AUDIT_DNS_SERVERS: dns.address, PAGE_AUDIT_HOST_REQUESTS_PER_SECOND: '50', PAGE_AUDIT_TIMEOUT_MS: '1500', PAGE_AUDIT_ROBOTS_CACHE_MS: '600000' },
    // The page-audit part of the worker (the whole worker runs it the same way: WORKER_PARTS).
    [PageAuditsWorkerModule],
  );
  org = await api.organization();
  other = await api.organization();
  brand = (await api.tenancy.createBrand({ organizationId: org.id, name: 'Acme CRM', domain: SITE_DOMAIN, competitors: [{ name: 'Globex', domain: 'globex.com' }] })).id;
});
afterAll(async () => {
  await api?.close();
  await dns?.close();
  await site.stop();
  await hidden.stop();
});

type Page = { url: string; status: string; reason: string | null; reasonCode: string | null; score: number | null; httpStatus: number | null };

async function audited(body: unknown, key = org.key, brandId = brand): Promise<{ id: number; status: string; pages: Page[]; reason: string | null; reasonCode: string | null; pagesFailed: number; pagesTotal: number }> {
  const created = await api.request({ method: 'POST', url: `/api/v1/brands/${brandId}/page-audits`, key, body });
  expect(created.status).toBe(201);
  const id = created.body.data.id as number;
  let audit = created.body.data;
  await until(async () => {
    audit = (await api.request({ url: `/api/v1/brands/${brandId}/page-audits/${id}`, key })).body.data;
    return audit.status === 'completed' || audit.status === 'failed';
  }, 30_000, `page audit ${id} ended`);
  return audit;
}

const byPath = (pages: Page[], path: string) => pages.find((p) => p.url === site.url(path))!;

describe('page audits', () => {
  let first: Awaited<ReturnType<typeof audited>>;

  beforeAll(async () => {
    // Agent analytics saw GPTBot get 503s on /gpt-blocked (its daily page rollup).
    const today = new Date().toISOString().slice(0, 10);
    for (const [status, visits] of [[503, 3], [200, 7]]) {
      await api.dataSource.query(
        `INSERT INTO agent_page_daily (organization_id, brand_id, host, day, bot_name, path, status, visits, disallowed_visits) VALUES ($1, $2, '${SITE_DOMAIN}', $3, 'GPTBot', '/gpt-blocked', $4, $5, 0)`,
        [org.id, brand, today, status, visits],
      );
    }
    first = await audited({
      urls: ['/products/crm', '/broken-json-ld', '/gpt-blocked', '/redirect-private', '/redirect-metadata', '/huge', '/slow', '/not-html', '/bad-encoding', '/blog/thoughts', '/missing', '/private/report', '/moved'].map((p) => site.url(p)),
    });
  });

  it('scores every fixture page or records why not, and the audit completes (no failed worker)', () => {
    expect(first).toMatchObject({ status: 'completed', pagesTotal: 13, pagesFailed: 8 });
    const product = byPath(first.pages, '/products/crm');
    expect(product).toMatchObject({ status: 'scored', httpStatus: 200 });
    expect(product.score).toBeGreaterThanOrEqual(85);
    expect(byPath(first.pages, '/broken-json-ld')).toMatchObject({ status: 'scored' });
    expect(byPath(first.pages, '/broken-json-ld').score).toBeLessThan(product.score!);
    expect(byPath(first.pages, '/gpt-blocked')).toMatchObject({ status: 'scored' });
    expect(byPath(first.pages, '/blog/thoughts').score).toBeLessThan(40);
    expect(byPath(first.pages, '/moved')).toMatchObject({ status: 'scored', httpStatus: 200 });
    // Refused by the guard after a redirect to a name of the brand's domain resolving to a private or a metadata address: said without the name or the address.
    for (const path of ['/redirect-private', '/redirect-metadata']) {
      expect(byPath(first.pages, path)).toMatchObject({ status: 'failed', reasonCode: 'address_not_allowed', reason: expect.stringMatching(/^address not allowed: redirected to a host/) });
      expect(byPath(first.pages, path).reason).not.toMatch(/127\.0\.0|169\.254|hidden|metadata/);
    }
    expect(byPath(first.pages, '/huge')).toMatchObject({ status: 'failed', reasonCode: 'too_large', reason: expect.stringMatching(/too large.*5242880/) });
    expect(byPath(first.pages, '/slow')).toMatchObject({ status: 'failed', reasonCode: 'timeout', reason: 'timed out after 1500 ms' });
    expect(byPath(first.pages, '/not-html')).toMatchObject({ status: 'failed', reasonCode: 'not_html', reason: expect.stringMatching(/not an HTML page \(Content-Type application\/pdf\)/) });
    expect(byPath(first.pages, '/bad-encoding')).toMatchObject({ status: 'failed', reasonCode: 'bad_encoding', reason: expect.stringMatching(/broken encoding/) });
    expect(byPath(first.pages, '/missing')).toMatchObject({ status: 'failed', reasonCode: 'http_404', reason: 'HTTP 404', httpStatus: 404 });
    expect(byPath(first.pages, '/private/report')).toMatchObject({ status: 'skipped', reasonCode: 'robots_disallowed', reason: expect.stringMatching(/robots\.txt disallows AIVisibilityPageAudit/) });
    expect(byPath(first.pages, '/products/crm')).toMatchObject({ reason: null, reasonCode: null });
  });

  it('refuses the private redirect without connecting, honours robots.txt, and names itself', () => {
    expect(hidden.connections).toBe(0);
    expect(site.requests('/private/report')).toHaveLength(0);
    expect(site.requests('/robots.txt')).toHaveLength(1);
    const { userAgent } = sectionOf(api.config, PAGE_AUDITS_CONFIG);
    for (const r of site.seen) expect(r.headers['user-agent']).toBe(userAgent);
    expect(userAgent).toMatch(/^AIVisibilityPageAudit\/1\.0/);
  });

  it('lists the pages by score with components, recommendations and bot access (geo/pages)', async () => {
    const r = await api.request({ url: `/api/v1/geo/pages?brandId=${brand}`, key: org.key });
    expect(r.status).toBe(200);
    expect(r.body.meta).toEqual({ total: 5, limit: 50, offset: 0, hasMore: false });
    const scores = r.body.data.map((p: { score: number }) => p.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const broken = r.body.data.find((p: { url: string }) => p.url === site.url('/broken-json-ld'));
    expect(broken.components.map((c: { component: string; weight: number }) => c.weight).reduce((a: number, b: number) => a + b, 0)).toBe(100);
    expect(broken.recommendations.find((x: { code: string }) => x.code === 'fix_json_ld')).toMatchObject({ component: 'structuredData', effort: 'low', expectedEffect: 4, evidence: { finding: expect.stringMatching(/do not parse/) } });
    const blocked = r.body.data.find((p: { url: string }) => p.url === site.url('/gpt-blocked'));
    const product = r.body.data.find((p: { url: string }) => p.url === site.url('/products/crm'));
    expect(blocked.botAccess.agents.find((a: { agent: string }) => a.agent === 'GPTBot')).toMatchObject({ allowed: false });
    expect(blocked.recommendations.find((x: { code: string }) => x.code === 'allow_ai_bots').evidence.blocked).toEqual([{ agent: 'GPTBot', operator: 'OpenAI', category: 'training' }]);
    // 4xx/5xx seen by bots (agent analytics) cost bot access too, with the evidence.
    expect(blocked.botAccess.seen).toEqual({ days: 30, bots: [{ bot: 'GPTBot', visits: 10, errors: 3, statuses: [503] }] });
    expect(blocked.recommendations.find((x: { code: string }) => x.code === 'fix_bot_errors')).toMatchObject({ component: 'botAccess', evidence: { finding: expect.stringMatching(/3 of 10 AI bot visits.*GPTBot: 503/) } });
    expect(product.botAccess.seen).toEqual({ days: 30, bots: [] });
    expect(product.botAccess.agents.every((a: { allowed: boolean }) => a.allowed)).toBe(true);
    expect(product.kinds).toEqual(expect.arrayContaining(['product', 'faq']));
    const asc = await api.request({ url: `/api/v1/geo/pages?brandId=${brand}&sort=url&order=asc&limit=2&offset=1`, key: org.key });
    expect(asc.body.meta).toEqual({ total: 5, limit: 2, offset: 1, hasMore: true });
    const urls = r.body.data.map((p: { url: string }) => p.url).sort();
    expect(asc.body.data.map((p: { url: string }) => p.url)).toEqual(urls.slice(1, 3));
  });

  it('asks again with the validators (304 keeps the page, scored anew) and keeps each audit as history', async () => {
    const again = await audited({ urls: [site.url('/products/crm')] });
    expect(again.pages[0]).toMatchObject({ status: 'not_modified', httpStatus: 304 });
    const conditional = site.requests('/products/crm').at(-1)!;
    expect(conditional.headers['if-none-match']).toBe('"crm-v1"');
    expect(conditional.headers['if-modified-since']).toBe('Tue, 10 Nov 2026 08:00:00 GMT');
    const r = await api.request({ url: `/api/v1/geo/pages?brandId=${brand}`, key: org.key });
    const product = r.body.data.find((p: { url: string }) => p.url === site.url('/products/crm'));
    expect(product).toMatchObject({ auditId: again.id, status: 'not_modified', score: again.pages[0].score });
    expect(product.history.map((h: { auditId: number }) => h.auditId)).toEqual(expect.arrayContaining([again.id, first.id]));
    expect(product.history[0].auditId).toBe(again.id);
  });

  it('audits the pages a sitemap lists (bad entries recorded per page); a sitemap that is not XML fails the audit with its reason', async () => {
    const fromSitemap = await audited({ sitemap: site.url('/sitemap-index.xml') });
    expect(fromSitemap.status).toBe('completed');
    expect(fromSitemap.pages.map((p) => p.status)).toEqual(['not_modified', 'scored', 'scored', 'failed', 'failed']);
    expect(fromSitemap.pages[3]).toMatchObject({ reasonCode: 'invalid_url', reason: expect.stringMatching(/must be http or https, not ftp/) });
    expect(fromSitemap.pages[4]).toMatchObject({ reasonCode: 'invalid_url', reason: expect.stringMatching(/not a valid absolute URL/) });
    for (const [path, code, reason] of [
      ['/not-a-sitemap.xml', 'not_a_sitemap', /not a sitemap: the root element is <html>/],
      ['/json-sitemap.xml', 'not_a_sitemap', /the sitemap is not XML/],
      ['/nowhere.xml', 'http_404', /^the sitemap answered HTTP 404$/],
    ] as const) {
      const failed = await audited({ sitemap: site.url(path) });
      expect({ path, status: failed.status, reasonCode: failed.reasonCode, reason: failed.reason }).toEqual({ path, status: 'failed', reasonCode: code, reason: expect.stringMatching(reason) });
    }
  });

  it('merges page findings with prompts where a competitor is cited and the brand is not (geo/recommendations)', async () => {
    const asked = new Date().toISOString();
    const answers = [
      { id: 'r-1', query: 'best crm for agencies', provider: 'chatgpt', citations: [['https://globex.com/crm-for-agencies', 'globex.com', 'competitor']] },
      { id: 'r-2', query: 'best crm for agencies', provider: 'perplexity', citations: [['https://globex.com/crm-for-agencies', 'globex.com', 'competitor'], ['https://g2.com/crm', 'g2.com', 'other']] },
      { id: 'r-3', query: 'crm pricing', provider: 'claude', citations: [['https://acme-crm.com/pricing', 'acme-crm.com', 'brand'], ['https://globex.com/pricing', 'globex.com', 'competitor']] },
      { id: 'r-4', query: 'crm pricing', provider: 'gemini', citations: [['https://g2.com/crm', 'g2.com', 'other']] },
    ];
    for (const a of answers) {
      await api.dataSource.query(
        `INSERT INTO analysis_results (id, run_id, n, organization_id, brand_id, query, provider, status, asked_at) VALUES ($1, 1, 0, $2, $3, $4, $5, 'answered', $6)`,
        [`${brand}-${a.id}`, org.id, brand, a.query, a.provider, asked],
      );
      for (const [k, [url, domain, owner]] of a.citations.entries()) {
        await api.dataSource.query(
          `INSERT INTO answer_citations (result_id, position, organization_id, brand_id, run_id, provider, asked_at, url, domain, owner, entity_id) VALUES ($1, $2, $3, $4, 1, $5, $6, $7, $8, $9, $10)`,
          [`${brand}-${a.id}`, k + 1, org.id, brand, a.provider, asked, url, domain, owner, owner === 'competitor' ? 'competitor-x' : owner === 'brand' ? `brand-${brand}` : null],
        );
      }
    }
    const r = await api.request({ url: `/api/v1/geo/recommendations?brandId=${brand}`, key: org.key });
    expect(r.status).toBe(200);
    const answer = r.body.data.find((x: { source: string }) => x.source === 'answers');
    expect(r.body.data.filter((x: { source: string }) => x.source === 'answers')).toHaveLength(1);
    expect(answer).toMatchObject({
      id: 'answers:best crm for agencies',
      code: 'earn_citation',
      component: 'citations',
      effort: 'medium',
      expectedEffect: { value: 50, unit: 'citation_rate_points' },
      evidence: { query: 'best crm for agencies', answers: 2, providers: ['chatgpt', 'perplexity'], competitorPages: [{ url: 'https://globex.com/crm-for-agencies', domain: 'globex.com', citations: 2 }] },
    });
    const fromPages = r.body.data.filter((x: { source: string }) => x.source === 'pages');
    expect(fromPages.map((x: { code: string }) => x.code)).toEqual(expect.arrayContaining(['fix_json_ld', 'allow_ai_bots', 'add_statistics']));
    for (const x of r.body.data) expect(x).toMatchObject({ title: expect.any(String), action: expect.any(String), effort: expect.stringMatching(/^(low|medium|high)$/), evidence: expect.any(Object) });
    const priorities = r.body.data.map((x: { priority: number }) => x.priority);
    expect(priorities).toEqual([...priorities].sort((a, b) => b - a));
    expect(r.body.data[0].id).toBe('answers:best crm for agencies');
  });

  it('answers 400 with the field for bad requests', async () => {
    const cases: [unknown, string][] = [
      [{ urls: ['not a url'] }, 'urls'],
      [{ urls: ['ftp://127.0.0.1/x'] }, 'urls'],
      [{ urls: ['javascript:alert(1)'] }, 'urls'],
      [{ urls: [] }, 'urls'],
      [{ urls: 'https://acme-crm.com/' }, 'urls'],
      // 400 either way: by the route's member budget when BodyRouteConfig is in (field urls), else by the house budget (field body).
      [{ urls: Array.from({ length: 1001 }, (_, k) => `https://acme-crm.com/p/${k}`) }, 'urls|body'],
      [{}, 'source'],
      [{ urls: ['https://acme-crm.com/'], sitemap: true }, 'source'],
      [{ sitemap: false }, 'sitemap'],
      [{ sitemap: 'ftp://acme-crm.com/sitemap.xml' }, 'sitemap'],
      [{ sitemap: null }, 'sitemap'],
      [{ urls: ['https://acme-crm.com/'], extra: 1 }, 'extra'],
      // Not the brand's domains (acme-crm.test and its subdomains).
      [{ urls: ['https://acme-crm.com/'] }, 'urls\\[0\\]'],
      [{ urls: [site.url('/products/crm'), 'http://127.0.0.1/'] }, 'urls\\[1\\]'],
      [{ sitemap: 'https://example.org/sitemap.xml' }, 'sitemap'],
    ];
    for (const [body, field] of cases) {
      const r = await api.request({ method: 'POST', url: `/api/v1/brands/${brand}/page-audits`, key: org.key, body });
      expect({ body: JSON.stringify(body).slice(0, 60), status: r.status, code: r.body.error?.code }).toEqual({ body: JSON.stringify(body).slice(0, 60), status: 400, code: 'VALIDATION_ERROR' });
      expect(r.body.error.details.fields.map((f: { field: string }) => f.field)).toContainEqual(expect.stringMatching(new RegExp(`^(${field})$`)));
    }
    expect((await api.request({ method: 'POST', url: `/api/v1/brands/abc/page-audits`, key: org.key, body: { urls: ['https://a.example/'] } })).status).toBe(400);
    for (const q of ['', 'brandId=x', `brandId=${brand}&limit=201`, `brandId=${brand}&offset=-1`, `brandId=${brand}&sort=bogus`, `brandId=${brand}&order=up`]) {
      expect({ q, status: (await api.request({ url: `/api/v1/geo/pages?${q}`, key: org.key })).status }).toEqual({ q, status: 400 });
    }
    for (const q of ['', `brandId=${brand}&days=0`, `brandId=${brand}&days=366`]) {
      expect({ q, status: (await api.request({ url: `/api/v1/geo/recommendations?${q}`, key: org.key })).status }).toEqual({ q, status: 400 });
    }
  });

  it('keeps tenants apart: another organisation, a client-bound key of another client, a key without the scope', async () => {
    expect((await api.request({ method: 'POST', url: `/api/v1/brands/${brand}/page-audits`, key: other.key, body: { urls: [site.url('/products/crm')] } })).status).toBe(404);
    expect((await api.request({ url: `/api/v1/brands/${brand}/page-audits/${first.id}`, key: other.key })).status).toBe(404);
    expect((await api.request({ url: `/api/v1/geo/pages?brandId=${brand}`, key: other.key })).status).toBe(404);
    expect((await api.request({ url: `/api/v1/geo/recommendations?brandId=${brand}`, key: other.key })).status).toBe(404);
    expect((await api.request({ url: `/api/v1/brands/${brand}/page-audits/999999`, key: org.key })).status).toBe(404);
    // Another brand of the same organisation does not see this brand's audit.
    const second = (await api.tenancy.createBrand({ organizationId: org.id, name: 'Initech', domain: 'initech.com' })).id;
    expect((await api.request({ url: `/api/v1/brands/${second}/page-audits/${first.id}`, key: org.key })).status).toBe(404);
    expect((await api.request({ url: `/api/v1/geo/pages?brandId=${second}`, key: org.key })).body.meta.total).toBe(0);
    const client = await api.tenancy.createClient(org.id, 'Client B');
    const bound = await api.keys.create({ organizationId: org.id, scopes: ['read:visibility', 'write:audits'], clientId: client.id });
    expect((await api.request({ url: `/api/v1/geo/pages?brandId=${brand}`, key: bound.key })).status).toBe(404);
    expect((await api.request({ url: `/api/v1/geo/recommendations?brandId=${brand}`, key: bound.key })).status).toBe(404);
    expect((await api.request({ method: 'POST', url: `/api/v1/brands/${brand}/page-audits`, key: bound.key, body: { urls: [site.url('/products/crm')] } })).status).toBe(404);
    expect((await api.request({ url: `/api/v1/geo/pages?brandId=${brand}&clientId=${client.id}`, key: org.key })).status).toBe(404);
    const readOnly = await api.keys.create({ organizationId: org.id, scopes: ['read:visibility'] });
    const refused = await api.request({ method: 'POST', url: `/api/v1/brands/${brand}/page-audits`, key: readOnly.key, body: { urls: [site.url('/products/crm')] } });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'INSUFFICIENT_SCOPE', details: { required: 'write:audits' } });
    const writeOnly = await api.keys.create({ organizationId: org.id, scopes: ['write:audits'] });
    expect((await api.request({ url: `/api/v1/geo/pages?brandId=${brand}`, key: writeOnly.key })).status).toBe(403);
  });
});
