import type { AddressInfo } from 'node:net';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { PageAuditsWorkerModule } from '@libs/page-audits';
import { createApiApp } from '../../apps/api/src/create-api-app';
import { HIDDEN_HOST, HiddenServer, LocalSite, METADATA_HOST, SITE_DOMAIN } from '../page-audits/support/local-site';
import { startLocalDns } from '../support/local-dns';
import { startTestApi, type TestApi } from '../support/test-api';
import { until } from '../support/until';

/**
 * The probe of issue 28 (items 9 and 11), replayed through the real API over HTTP: what it sent to
 * the page audits and what it should have got.
 * - Item 9: failure reasons named internal hosts and addresses (`refused to connect to vm
 *   (127.0.0.1)`, `ENOTFOUND …`); a sitemap the address guard refused was reported as a
 *   robots.txt disallow.
 * - Item 11: page audits fetched any public URL, and nothing bounded how much an organisation could
 *   ask for.
 * The brand's site runs on 127.0.0.1 under its domain; a local DNS server (PAGE_AUDIT_DNS_SERVERS)
 * answers for the brand's names: the site's on 127.0.0.1 (let through by
 * PAGE_AUDIT_ALLOWED_ADDRESSES), an intranet name on 10.0.0.7, the hidden server's on 127.0.0.2,
 * the metadata name on 169.254.169.254, and nothing for a name that does not exist. Quotas are
 * lowered for the free tier (QUOTA_TIERS) and checked across two API processes.
 */
const EXTRA_DOMAIN = 'acme-shop.test';
const INTRANET_HOST = `vm.${SITE_DOMAIN}`;
const MISSING_HOST = `gone.${SITE_DOMAIN}`;
const hidden = new HiddenServer();
const site = new LocalSite(hidden, SITE_DOMAIN, { hidden: HIDDEN_HOST, metadata: METADATA_HOST });
let dns: Awaited<ReturnType<typeof startLocalDns>>;
let api: TestApi;
let second: NestFastifyApplication;
let base: string;
let secondBase: string;
let org: { id: number; key: string };
let brand: number;
let closedPort: number;

/** Words a public reason must never contain: the internal names the probe used and what they resolve to. */
const INTERNAL = /127\.0\.0|10\.0\.0\.7|169\.254|\bvm\b|hidden|metadata|gone\.|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|getaddrinfo|localhost/;

beforeAll(async () => {
  await hidden.start();
  await site.start();
  // A port nothing listens on (connection refused).
  const probe = (await import('node:net')).createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise((r) => probe.close(r));
  dns = await startLocalDns({
    a: {
      [SITE_DOMAIN]: ['127.0.0.1'],
      [`www.${SITE_DOMAIN}`]: ['127.0.0.1'],
      [EXTRA_DOMAIN]: ['127.0.0.1'],
      [INTRANET_HOST]: ['10.0.0.7'],
      [HIDDEN_HOST]: ['127.0.0.2'],
      [METADATA_HOST]: ['169.254.169.254'],
    },
  });
  api = await startTestApi(
    {
      PAGE_AUDIT_ALLOWED_ADDRESSES: '127.0.0.1',
      PAGE_AUDIT_DNS_SERVERS: dns.address,
      PAGE_AUDIT_HOST_REQUESTS_PER_SECOND: '100',
      PAGE_AUDIT_TIMEOUT_MS: '3000',
      QUOTA_TIERS: JSON.stringify({ free: { pageAuditPagesPerDay: 5, auditRequestsPerDay: 2 } }),
    },
    [PageAuditsWorkerModule],
  );
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(api.app.getHttpServer().address() as AddressInfo).port}`;
  // Another API process: same database, same Redis prefix (another replica behind the load balancer).
  second = await createApiApp(api.config);
  await second.listen({ port: 0, host: '127.0.0.1' });
  secondBase = `http://127.0.0.1:${(second.getHttpServer().address() as AddressInfo).port}`;
  org = await api.organization();
  brand = (await api.tenancy.createBrand({ organizationId: org.id, name: 'Acme CRM', domain: SITE_DOMAIN, extraDomains: [EXTRA_DOMAIN] })).id;
}, 120_000);
afterAll(async () => {
  await second?.close();
  await api?.close();
  await dns?.close();
  await site.stop();
  await hidden.stop();
});

async function http(method: string, path: string, key: string, body?: unknown, at = base): Promise<{ status: number; headers: Headers; body: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const res = await fetch(`${at}${path}`, { method, headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

type Page = { url: string; status: string; reason: string | null; reasonCode: string | null; finalUrl: string | null };
type Audit = { id: number; status: string; reason: string | null; reasonCode: string | null; pagesTotal: number; pagesOverQuota: number; pages: Page[] };

async function finished(brandId: number, id: number, key = org.key): Promise<Audit> {
  let audit!: Audit;
  await until(async () => {
    audit = (await http('GET', `/api/v1/brands/${brandId}/page-audits/${id}`, key)).body.data;
    return audit.status === 'completed' || audit.status === 'failed';
  }, 60_000, `page audit ${id} ended`);
  return audit;
}

async function audited(body: unknown, key = org.key, brandId = brand): Promise<Audit> {
  const created = await http('POST', `/api/v1/brands/${brandId}/page-audits`, key, body);
  expect(created.status).toBe(201);
  return finished(brandId, created.body.data.id, key);
}

const on = (host: string, path: string, port = site.port) => `http://${host}:${port}${path}`;

describe('item 9: failure reasons say why without internal names or addresses', () => {
  let audit: Audit;
  let urls: Record<'intranet' | 'missing' | 'hidden' | 'redirectPrivate' | 'redirectMetadata' | 'refused', string>;
  const page = (url: string) => audit.pages.find((p) => p.url === url)!;

  beforeAll(async () => {
    urls = {
      intranet: on(INTRANET_HOST, '/'),
      missing: on(MISSING_HOST, '/'),
      hidden: on(HIDDEN_HOST, '/secret', hidden.port),
      redirectPrivate: site.url('/redirect-private'),
      redirectMetadata: site.url('/redirect-metadata'),
      refused: on(SITE_DOMAIN, '/', closedPort),
    };
    audit = await audited({ urls: Object.values(urls) });
  });

  it('records a stable code and a sentence for each: address not allowed, name not resolved, connection refused', () => {
    expect(audit).toMatchObject({ status: 'completed', pagesTotal: 6 });
    expect(page(urls.intranet)).toMatchObject({ status: 'failed', reasonCode: 'address_not_allowed', reason: expect.stringMatching(/^address not allowed: the host is, or resolves to, an address that is not public/) });
    expect(page(urls.hidden)).toMatchObject({ status: 'failed', reasonCode: 'address_not_allowed', reason: expect.stringMatching(/^address not allowed/) });
    expect(page(urls.missing)).toMatchObject({ status: 'failed', reasonCode: 'name_not_resolved', reason: 'name not resolved: the host name has no address' });
    expect(page(urls.redirectPrivate)).toMatchObject({ status: 'failed', reasonCode: 'address_not_allowed', reason: expect.stringMatching(/^address not allowed: redirected to a host/) });
    expect(page(urls.redirectMetadata)).toMatchObject({ status: 'failed', reasonCode: 'address_not_allowed', reason: expect.stringMatching(/^address not allowed: redirected to a host/) });
    expect(page(urls.refused)).toMatchObject({ status: 'failed', reasonCode: 'connection_refused', reason: 'connection refused by the server' });
  });

  it('names no internal host, address or system error in any reason, and connects to none of them', () => {
    for (const p of audit.pages) expect({ url: p.url, reason: p.reason }).toEqual({ url: p.url, reason: expect.not.stringMatching(INTERNAL) });
    expect(hidden.connections).toBe(0);
  });

  it('reports a sitemap the address guard refuses as refused, not as a robots.txt disallow', async () => {
    for (const [sitemap, code, message] of [
      [on(HIDDEN_HOST, '/sitemap.xml', hidden.port), 'address_not_allowed', /^the sitemap could not be fetched: address not allowed/],
      [on(INTRANET_HOST, '/sitemap.xml'), 'address_not_allowed', /^the sitemap could not be fetched: address not allowed/],
      [on(MISSING_HOST, '/sitemap.xml'), 'name_not_resolved', /^the sitemap could not be fetched: name not resolved/],
    ] as const) {
      const failed = await audited({ sitemap });
      expect({ sitemap, status: failed.status, reasonCode: failed.reasonCode, reason: failed.reason }).toEqual({ sitemap, status: 'failed', reasonCode: code, reason: expect.stringMatching(message) });
      expect(failed.reason).not.toMatch(/robots/);
      expect(failed.reason).not.toMatch(INTERNAL);
    }
    expect(hidden.connections).toBe(0);
  });

  it('still reports a real robots.txt disallow of the sitemap as one', async () => {
    site.files.set('/blocked-sitemap.xml', { type: 'application/xml', body: '<urlset></urlset>' });
    site.robots = `${site.robots}\nUser-agent: AIVisibilityPageAudit\nDisallow: /blocked-sitemap.xml\n`;
    // A site of its own (www.): robots.txt is read once per site and kept.
    const failed = await audited({ sitemap: on(`www.${SITE_DOMAIN}`, '/blocked-sitemap.xml') });
    expect(failed).toMatchObject({ status: 'failed', reasonCode: 'robots_disallowed', reason: 'robots.txt disallows AIVisibilityPageAudit from the sitemap' });
  });
});

describe("item 11: page audits fetch the brand's own domains only", () => {
  it('answers 400 with the error object, naming each URL off the brand’s domains, and fetches nothing', async () => {
    const seen = site.seen.length;
    const queries = dns.queries.length;
    const r = await http('POST', `/api/v1/brands/${brand}/page-audits`, org.key, {
      urls: [site.url('/products/crm'), 'https://example.org/', `http://127.0.0.1:${site.port}/products/crm`, 'http://vm:8080/', `http://${SITE_DOMAIN}.evil.example/`, `http://evil${SITE_DOMAIN}/`],
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.any(String) });
    expect(r.body.error.details.fields.map((f: { field: string }) => f.field)).toEqual(['urls[1]', 'urls[2]', 'urls[3]', 'urls[4]', 'urls[5]']);
    expect(r.body.error.details.fields[0].message).toMatch(new RegExp(`brand's domains \\(${SITE_DOMAIN}, ${EXTRA_DOMAIN}\\)`));
    for (const sitemap of ['https://example.org/sitemap.xml', `http://127.0.0.1:${site.port}/sitemap.xml`]) {
      const s = await http('POST', `/api/v1/brands/${brand}/page-audits`, org.key, { sitemap });
      expect([s.status, s.body.error.code, s.body.error.details.fields[0].field]).toEqual([400, 'VALIDATION_ERROR', 'sitemap']);
    }
    // Nothing was fetched or even resolved for them.
    expect(site.seen.length).toBe(seen);
    expect(dns.queries.slice(queries)).toEqual([]);
  });

  it('audits the brand’s domain, its subdomains and its extra domains', async () => {
    const audit = await audited({ urls: [site.url('/products/crm'), on(`www.${SITE_DOMAIN}`, '/blog/thoughts'), on(EXTRA_DOMAIN, '/products/crm')] });
    expect(audit.pages.map((p) => [p.url, p.status])).toEqual([
      [site.url('/products/crm'), 'scored'],
      [on(`www.${SITE_DOMAIN}`, '/blog/thoughts'), 'scored'],
      [on(EXTRA_DOMAIN, '/products/crm'), 'scored'],
    ]);
  });

  it('does not follow a redirect off the brand’s domains, nor audit a sitemap’s pages elsewhere', async () => {
    const queries = dns.queries.length;
    const redirected = await audited({ urls: [site.url('/redirect-elsewhere')] });
    expect(redirected.pages[0]).toMatchObject({ status: 'failed', reasonCode: 'outside_brand_domains', reason: expect.stringMatching(/^redirected to a host that is not one of the brand's domains/) });
    expect(dns.queries.slice(queries)).not.toContain('example.org');
    site.files.set('/mixed-sitemap.xml', {
      type: 'application/xml',
      body: `<urlset>${[site.url('/products/crm'), 'https://example.org/elsewhere', `http://127.0.0.1:${site.port}/products/crm`].map((u) => `<url><loc>${u}</loc></url>`).join('')}</urlset>`,
    });
    const before = site.requests('/products/crm').length;
    const used = async () => Number((await api.dataSource.query(`SELECT coalesce(sum(used), 0) AS n FROM organization_quota_usage WHERE organization_id = $1 AND quota = 'page_audit_pages' AND period = 'day'`, [org.id]))[0].n);
    const usedBefore = await used();
    const mixed = await audited({ sitemap: site.url('/mixed-sitemap.xml') });
    expect(mixed.pages.map((p) => [p.status, p.reasonCode])).toEqual([
      ['not_modified', null],
      ['failed', 'outside_brand_domains'],
      ['failed', 'outside_brand_domains'],
    ]);
    expect(site.requests('/products/crm').length).toBe(before + 1);
    // Only the page fetched counts against the quota.
    expect((await used()) - usedBefore).toBe(1);
  });
});

describe('item 11: quotas per organisation, by tier, across API processes', () => {
  const freeOrg = async () => {
    const o = await api.organization({ tier: 'free' });
    const b = (await api.tenancy.createBrand({ organizationId: o.id, name: `Free ${o.id}`, domain: SITE_DOMAIN })).id;
    return { ...o, brand: b };
  };
  const pages = (n: number, from = 0) => Array.from({ length: n }, (_, k) => site.url(`/pages/${from + k}`));
  const secondsToMidnight = () => (Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 1) - Date.now()) / 1000;

  it('refuses pages beyond the daily page quota with 429, Retry-After until the day starts again, and records nothing', async () => {
    const free = await freeOrg();
    expect((await http('POST', `/api/v1/brands/${free.brand}/page-audits`, free.key, { urls: pages(3) })).status).toBe(201);
    const refused = await http('POST', `/api/v1/brands/${free.brand}/page-audits`, free.key, { urls: pages(3, 3) });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({
      code: 'RATE_LIMITED',
      message: expect.stringMatching(/daily quota of page-audit pages/),
      details: { quota: 'page_audit_pages', period: 'day', max: 5, used: 3, requested: 3, remaining: 2, resetsAt: expect.stringMatching(/T00:00:00\.000Z$/) },
    });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(Math.floor(secondsToMidnight()) - 5);
    expect(retryAfter).toBeLessThanOrEqual(Math.ceil(secondsToMidnight()) + 1);
    // What is left still fits; then nothing does, a sitemap included (its size is not known yet, but it needs one page).
    expect((await http('POST', `/api/v1/brands/${free.brand}/page-audits`, free.key, { urls: pages(2, 3) })).status).toBe(201);
    const none = await http('POST', `/api/v1/brands/${free.brand}/page-audits`, free.key, { sitemap: true });
    expect([none.status, none.body.error.details.remaining]).toEqual([429, 0]);
    const [{ n }] = await api.dataSource.query(`SELECT count(*)::int AS n FROM page_audits WHERE organization_id = $1`, [free.id]);
    expect(n).toBe(2);
    // Another organisation of the same tier has its own quota.
    const other = await freeOrg();
    expect((await http('POST', `/api/v1/brands/${other.brand}/page-audits`, other.key, { urls: pages(5) })).status).toBe(201);
  });

  it('holds across two API processes: 10 concurrent one-page audits, alternating between them, get exactly 5 through', async () => {
    const free = await freeOrg();
    const results = await Promise.all(pages(10, 20).map((url, i) => http('POST', `/api/v1/brands/${free.brand}/page-audits`, free.key, { urls: [url] }, i % 2 ? secondBase : base)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(5);
    expect(results.filter((r) => r.status === 429)).toHaveLength(5);
    for (const r of results.filter((x) => x.status === 429)) expect(r.body.error.details).toMatchObject({ quota: 'page_audit_pages', max: 5, remaining: 0 });
  });

  it('audits a sitemap’s pages as far as the quota goes and counts the rest', async () => {
    const free = await freeOrg();
    site.files.set('/eight-sitemap.xml', { type: 'application/xml', body: `<urlset>${pages(8, 40).map((u) => `<url><loc>${u}</loc></url>`).join('')}</urlset>` });
    const audit = await audited({ sitemap: site.url('/eight-sitemap.xml') }, free.key, free.brand);
    expect(audit).toMatchObject({ status: 'completed', pagesTotal: 5, pagesOverQuota: 3 });
    expect(audit.pages).toHaveLength(5);
    // The quota is spent: the next sitemap audit is refused at once.
    expect((await http('POST', `/api/v1/brands/${free.brand}/page-audits`, free.key, { sitemap: site.url('/eight-sitemap.xml') })).status).toBe(429);
  });

  it('limits audit requests per day by tier, across both processes', async () => {
    const free = await freeOrg();
    const ask = (at: string) => http('POST', '/api/v1/audit-requests', free.key, { brandId: free.brand, queries: ['best crm for agencies'], providers: ['chatgpt'] }, at);
    const results = await Promise.all([ask(base), ask(secondBase), ask(base), ask(secondBase)]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 429, 429]);
    const refused = results.find((r) => r.status === 429)!;
    expect(refused.body.error).toMatchObject({ code: 'RATE_LIMITED', details: { quota: 'audit_requests', period: 'day', max: 2, remaining: 0 } });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // An enterprise organisation is far from its quota.
    expect((await http('POST', '/api/v1/audit-requests', org.key, { brandId: brand, queries: ['best crm for agencies'], providers: ['chatgpt'] })).status).toBe(201);
  });
});
