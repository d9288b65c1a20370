import { PageAuditsWorkerModule } from '@libs/page-audits';
import { cli } from '../support/cli';
import { startTestApi, type TestApi } from '../support/test-api';
import { until } from '../support/until';
import { LocalSite, SITE_DOMAIN, startSiteDns } from './support/local-site';

/** `page-audit run|show|pages`: the CLI queues the audit, the worker (in-process here) runs it. */
const site = new LocalSite(undefined, SITE_DOMAIN);
let dns: Awaited<ReturnType<typeof startSiteDns>>;
let api: TestApi;
let env: Record<string, string>;
let brand: number;

beforeAll(async () => {
  await site.start();
  dns = await startSiteDns();
  api = await startTestApi({ PAGE_AUDIT_ALLOWED_ADDRESSES: '127.0.0.1', PAGE_AUDIT_DNS_SERVERS: dns.address, PAGE_AUDIT_HOST_REQUESTS_PER_SECOND: '50' }, [PageAuditsWorkerModule]);
  env = { DATABASE_URL: api.db.url, REDIS_PREFIX: api.config.redisPrefix, PAGE_AUDIT_ALLOWED_ADDRESSES: '127.0.0.1' };
  const org = await api.organization();
  brand = (await api.tenancy.createBrand({ organizationId: org.id, name: 'Acme CRM', domain: SITE_DOMAIN })).id;
});
afterAll(async () => {
  await api?.close();
  await dns?.close();
  await site.stop();
});

describe('page-audit CLI', () => {
  it('runs an audit of URLs, shows it and lists the pages by score', async () => {
    const started = await cli(['--json', 'page-audit', 'run', '--brand', String(brand), '--url', site.url('/products/crm'), '--url', site.url('/blog/thoughts')], env);
    expect(started.stderr).toBe('');
    expect(started.code).toBe(0);
    const audit = JSON.parse(started.stdout);
    expect(audit).toMatchObject({ id: expect.any(Number), brandId: brand, source: 'urls', status: 'queued', pagesTotal: 2 });
    // The in-process worker runs it; then the CLI shows it.
    await until(async () => (await api.dataSource.query(`SELECT status FROM page_audits WHERE id = $1`, [audit.id]))[0].status === 'completed', 30_000, 'the CLI audit completed');
    const shown: { status: string; pages: { url: string; status: string; score: number }[] } = JSON.parse((await cli(['--json', 'page-audit', 'show', '--brand', String(brand), '--id', String(audit.id)], env)).stdout);
    expect(shown.status).toBe('completed');
    expect(shown.pages.map((p) => p.status)).toEqual(['scored', 'scored']);
    const pages = await cli(['--json', 'page-audit', 'pages', '--brand', String(brand)], env);
    const listed = JSON.parse(pages.stdout);
    expect(listed.total).toBe(2);
    expect(listed.pages[0]).toMatchObject({ url: site.url('/products/crm') });
    expect(listed.pages[0].score).toBeGreaterThan(listed.pages[1].score);
  }, 300_000);

  it('refuses bad usage with exit code 2', async () => {
    // Each CLI start costs seconds on a shared machine: four cases (no pages, a bad scheme, a page off the brand's domains, an unknown brand).
    for (const args of [
      ['page-audit', 'run', '--brand', String(brand), '--url', site.url('/a'), '--sitemap'],
      ['page-audit', 'run', '--brand', String(brand), '--url', 'ftp://x/y'],
      ['page-audit', 'run', '--brand', String(brand), '--url', site.url('/a'), '--url', 'https://example.org/'],
      ['page-audit', 'show', '--brand', '999999', '--id', '1'],
    ]) {
      const r = await cli(args, env);
      expect({ args: args.join(' '), code: r.code }).toEqual({ args: args.join(' '), code: 2 });
      expect(r.stderr).toMatch(/^error: /);
      if (args.includes('https://example.org/')) expect(r.stderr).toMatch(/urls\[1\] must be on one of the brand's domains \(acme-crm\.test\)/);
    }
  }, 300_000);
});
