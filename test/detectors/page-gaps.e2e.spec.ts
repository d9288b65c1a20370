import { WorkerPartModule } from '../../apps/worker/src/worker.module';
import { startTestApi, type TestApi } from '../support/test-api';
import { until } from '../support/until';
import { LocalSite, SITE_DOMAIN, startSiteDns } from '../page-audits/support/local-site';
import { brokenJsonLdPage, productPage, thinArticle } from '../page-audits/support/fixture-pages';

/**
 * The page detectors end to end: the API and the whole worker in-process, a brand's site served on
 * 127.0.0.1 under its domain (named by a local DNS server). An audit finds /pricing's JSON-LD broken and /guide thin; the worker's sweep opens
 * schema_gap and readiness_gap with the audit as evidence. Both move to verifying; /pricing is
 * fixed, /guide is not; the next audit resolves the first (verification passed) and regresses the
 * second (failed), and the sweep over the same audits opens nothing new.
 */
const site = new LocalSite(undefined, SITE_DOMAIN);
let dns: Awaited<ReturnType<typeof startSiteDns>>;
let api: TestApi;
let org: { id: number; key: string };
let brand: number;

type Page = { url: string; status: string; score: number | null };
type Opportunity = { id: number; type: string; status: string; severity: string; source: string; fingerprint: string; evidence: Record<string, any>; verification: { status: string; details: Record<string, any> | null } }; // eslint-disable-line @typescript-eslint/no-explicit-any

beforeAll(async () => {
  await site.start();
  dns = await startSiteDns();
  site.pages.set('/pricing', brokenJsonLdPage(site.origin));
  site.pages.set('/guide', thinArticle());
  api = await startTestApi(
    { PAGE_AUDIT_ALLOWED_ADDRESSES: '127.0.0.1', PAGE_AUDIT_DNS_SERVERS: dns.address, PAGE_AUDIT_HOST_REQUESTS_PER_SECOND: '50', DETECTOR_PAGE_POLL_MS: '200', ANALYSIS_SCHEDULER_POLL_MS: '86400000' },
    [WorkerPartModule.forRoot()],
  );
  org = await api.organization();
  brand = (await api.tenancy.createBrand({ organizationId: org.id, name: 'Acme CRM', domain: SITE_DOMAIN })).id;
});
afterAll(async () => {
  await api?.close();
  await dns?.close();
  await site.stop();
}, 180_000);

async function audit(paths: string[]): Promise<{ id: number; pages: Page[] }> {
  const created = await api.request({ method: 'POST', url: `/api/v1/brands/${brand}/page-audits`, key: org.key, body: { urls: paths.map((p) => site.url(p)) } });
  expect(created.status).toBe(201);
  const id = created.body.data.id as number;
  let body = created.body.data;
  await until(async () => {
    body = (await api.request({ url: `/api/v1/brands/${brand}/page-audits/${id}`, key: org.key })).body.data;
    return body.status === 'completed';
  }, 30_000, `page audit ${id} completed`);
  return body;
}

async function pageOpportunities(): Promise<Opportunity[]> {
  await api.projected(['opportunities']);
  const r = await api.request({ url: `/api/v1/opportunities?type=schema_gap,readiness_gap&includeTerminal=true&limit=100`, key: org.key });
  expect(r.status).toBe(200);
  return r.body.data;
}

/** Resolves once the sweep has judged the audit (its record of judged audits). */
const judged = (auditId: number) => until(async () => (await api.dataSource.query(`SELECT 1 FROM page_gap_checks WHERE audit_id = $1`, [auditId])).length === 1, 20_000, `audit ${auditId} judged`);

it('opens schema_gap and readiness_gap from an audit, verifies them on the next audit (one fixed: resolved; one not: regressed), and opens nothing twice', async () => {
  const first = await audit(['/pricing', '/guide']);
  await judged(first.id);
  const opened = await pageOpportunities();
  const pricing = site.url('/pricing');
  const guide = site.url('/guide');
  const schema = opened.find((o) => o.fingerprint === `schema_gap:${brand}:${pricing}`);
  expect(schema).toMatchObject({
    type: 'schema_gap',
    status: 'detected',
    source: 'detector:schema_gap',
    severity: 'high',
    evidence: { page: { url: pricing }, audit: { id: first.id, link: `/api/v1/brands/${brand}/page-audits/${first.id}` }, problems: expect.arrayContaining([expect.objectContaining({ code: 'fix_json_ld' })]) },
  });
  // readiness_gap for each page scored under the floor (50), and for no other.
  const low = first.pages.filter((p) => (p.score ?? 100) < 50).map((p) => p.url);
  expect(low).toContain(guide);
  expect(opened.filter((o) => o.type === 'readiness_gap').map((o) => o.evidence.page.url).sort()).toEqual([...low].sort());
  const readiness = opened.find((o) => o.fingerprint === `readiness_gap:${brand}:${guide}`)!;
  expect(readiness.evidence).toMatchObject({ score: first.pages.find((p) => p.url === guide)!.score, minPageScore: 50, weakest: expect.arrayContaining([expect.objectContaining({ actions: expect.any(Array) })]) });

  // People fix /pricing, not /guide, and ask for verification of both.
  for (const o of [schema!, readiness]) {
    for (const toStatus of ['assigned', 'in_progress', 'fix_deployed', 'verifying']) {
      const r = await api.request({ method: 'POST', url: `/api/v1/opportunities/${o.id}/transition`, key: org.key, body: { toStatus, ...(toStatus === 'assigned' ? { owner: 'ana@example.com' } : {}) } });
      expect(r.status).toBe(200);
    }
  }
  site.pages.set('/pricing', productPage(site.origin));
  // Until a page is audited after its fix, its verification waits.
  const waitingAudit = await audit(['/other-page-fixture-missing']);
  await judged(waitingAudit.id);
  expect((await pageOpportunities()).filter((o) => o.status === 'verifying').map((o) => o.id).sort()).toEqual([schema!.id, readiness.id].sort());

  const second = await audit(['/pricing', '/guide']);
  await judged(second.id);
  const after = await pageOpportunities();
  expect(after.find((o) => o.id === schema!.id)).toMatchObject({ status: 'resolved', verification: { status: 'passed', details: { page: pricing, audit: { id: second.id } } } });
  expect(after.find((o) => o.id === readiness.id)).toMatchObject({ status: 'regressed', verification: { status: 'failed' } });
  // The same audits judged again open nothing: the regressed gap is still open, the fixed one is gone.
  await api.dataSource.query(`DELETE FROM page_gap_checks`);
  await judged(second.id);
  expect((await pageOpportunities()).length).toBe(after.length);
  const history = await api.request({ url: `/api/v1/opportunities/${schema!.id}/events`, key: org.key });
  expect(history.body.data.at(-1)).toMatchObject({ type: 'opportunity.transitioned', actor: 'system', data: { from: 'verifying', to: 'resolved', reason: expect.stringContaining('shows the gap closed') } });
}, 180_000);

it('judges only the pages of the new audits: a dismissed gap does not come back when another page is audited', async () => {
  site.pages.set('/thin-two', thinArticle());
  const first = await audit(['/thin-two']);
  await judged(first.id);
  const gap = (await pageOpportunities()).find((o) => o.fingerprint === `readiness_gap:${brand}:${site.url('/thin-two')}`)!;
  expect(gap).toMatchObject({ status: 'detected' });
  expect((await api.request({ method: 'POST', url: `/api/v1/opportunities/${gap.id}/transition`, key: org.key, body: { toStatus: 'dismissed', reason: 'an archived page' } })).status).toBe(200);
  const before = (await pageOpportunities()).length;
  const other = await audit(['/pricing']);
  await judged(other.id);
  const after = await pageOpportunities();
  expect(after.length).toBe(before);
  expect(after.find((o) => o.id === gap.id)).toMatchObject({ status: 'dismissed' });
}, 120_000);
