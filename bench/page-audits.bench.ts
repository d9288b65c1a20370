/**
 * Page audits (issue 20). Prints ONE JSON line.
 *
 * 1. Scoring alone: `BENCH_SCORE_PAGES` (200) distinct fixture pages of ~50 KB each, extracted and scored
 *    (signals, nine components, recommendations) on one core for `BENCH_SCORE_ROUNDS` (5) rounds; beside it, in
 *    interleaved rounds of the same run, a bare htmlparser2 tokenizer pass over the same pages (the floor any
 *    scoring on this parser pays). Figures are medians over the rounds.
 * 2. An audit of `BENCH_AUDIT_PAGES` (500) pages of a local site on 127.0.0.1 answering each in 50 ms, at the
 *    per-host limit (`PAGE_AUDIT_HOST_REQUESTS_PER_SECOND`, default 2): the seconds from the POST to the audit's
 *    completion beside what the limit implies ((pages + robots.txt - 1) / rate + one page's latency), and
 *    whether it is within 10 %. The API and the page-audit worker run in this process, on a fresh database.
 * Usage: npm run bench:page-audits   (BENCH_AUDIT_PAGES=40 for a quick look)
 */
import { Parser } from 'htmlparser2';
import { extractSignals, pageRecommendations, PageAuditsWorkerModule, RobotsRules, scorePage } from '@libs/page-audits';
import { sizedPage } from '../test/page-audits/support/fixture-pages';
import { LocalSite, SITE_DOMAIN, startSiteDns } from '../test/page-audits/support/local-site';
import { ALL_SCOPES, ApiKeysRepository } from '@libs/auth';
import { createDataSource } from '@libs/database';
import { TenancyRepository } from '@libs/tenancy';
import { createApiApp } from '../apps/api/src/create-api-app';
import { loadServiceConfig } from '../apps/composition/config';
import { withBenchDatabase } from './support/bench-database';

const SCORE_PAGES = Number(process.env.BENCH_SCORE_PAGES ?? 200);
const ROUNDS = Number(process.env.BENCH_SCORE_ROUNDS ?? 5);
const AUDIT_PAGES = Number(process.env.BENCH_AUDIT_PAGES ?? 500);
const RATE = Number(process.env.PAGE_AUDIT_HOST_REQUESTS_PER_SECOND ?? 2);
const PAGE_DELAY_MS = 50;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function scoring() {
  const origin = 'https://acme.example';
  const pages = Array.from({ length: SCORE_PAGES }, (_, k) => ({ url: `${origin}/pages/${k}`, html: sizedPage(origin, k) }));
  const rules = new RobotsRules(`${origin}/robots.txt`, { state: 'found', text: 'User-agent: GPTBot\nDisallow: /pages/1\n\nUser-agent: *\nAllow: /\n' });
  const now = new Date();
  let sink = 0;
  const score = () => {
    for (const p of pages) {
      const s = scorePage(p.url, extractSignals(p.html, p.url), rules.botAccess(p.url), now);
      sink += s.score + pageRecommendations(s).length;
    }
  };
  const tokenize = () => {
    for (const p of pages) {
      const parser = new Parser({ ontext: (t) => void (sink += t.length) }, { decodeEntities: true });
      parser.write(p.html);
      parser.end();
    }
  };
  score();
  tokenize();
  const scored: number[] = [];
  const floor: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    let t = performance.now();
    tokenize();
    floor.push((pages.length * 1000) / (performance.now() - t));
    t = performance.now();
    score();
    scored.push((pages.length * 1000) / (performance.now() - t));
  }
  const bytes = pages.reduce((a, p) => a + p.html.length, 0) / pages.length;
  return { pages: pages.length, averagePageBytes: Math.round(bytes), pagesPerSecond: Math.round(median(scored)), tokenizeOnlyPagesPerSecond: Math.round(median(floor)), meetsTarget: median(scored) >= 200, sink: sink > 0 };
}

async function audit() {
  // The brand's site under its domain, named by a local DNS server (page audits fetch the brand's domains only).
  const site = new LocalSite(undefined, SITE_DOMAIN);
  site.pageDelayMs = PAGE_DELAY_MS;
  site.robots = 'User-agent: *\nAllow: /\n';
  await site.start();
  const dns = await startSiteDns();
  return withBenchDatabase('page_audits', async (url) => {
  const config = loadServiceConfig({ ...process.env, LOG_LEVEL: 'silent', DATABASE_URL: url, REDIS_PREFIX: `aov_bench_pa_${process.pid}`, PAGE_AUDIT_ALLOWED_ADDRESSES: '127.0.0.1', PAGE_AUDIT_DNS_SERVERS: dns.address, PAGE_AUDIT_HOST_REQUESTS_PER_SECOND: String(RATE), PAGE_AUDIT_CONCURRENCY: '10' });
  const app = await createApiApp(config, [PageAuditsWorkerModule]);
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  const dataSource = await createDataSource(url, 2).initialize();
  const request = async (o: { method?: 'GET' | 'POST'; url: string; key: string; body?: object }) => {
    const res = await app.inject({ method: o.method ?? 'GET', url: o.url, headers: { 'x-api-key': o.key }, ...(o.body ? { payload: o.body } : {}) });
    return { status: res.statusCode, body: JSON.parse(res.body) };
  };
  try {
    const tenancy = new TenancyRepository(dataSource);
    const organization = await tenancy.createOrganization('Bench', 'enterprise');
    const org = { key: (await new ApiKeysRepository(dataSource).create({ organizationId: organization.id, scopes: [...ALL_SCOPES], tier: 'enterprise' })).key };
    const brand = (await tenancy.createBrand({ organizationId: organization.id, name: 'Acme CRM', domain: SITE_DOMAIN })).id;
    const urls = Array.from({ length: AUDIT_PAGES }, (_, k) => site.url(`/pages/${k}`));
    const started = performance.now();
    const created = await request({ method: 'POST', url: `/api/v1/brands/${brand}/page-audits`, key: org.key, body: { urls } });
    if (created.status !== 201) throw new Error(`POST answered ${created.status}: ${JSON.stringify(created.body)}`);
    const id = created.body.data.id as number;
    let status = 'queued';
    let body: { pagesDone: number; pagesFailed: number; pages: { url: string; status: string; reason: string | null }[] } = { pagesDone: 0, pagesFailed: 0, pages: [] };
    while (status !== 'completed' && status !== 'failed') {
      await new Promise((r) => setTimeout(r, 100));
      const r = await request({ url: `/api/v1/brands/${brand}/page-audits/${id}`, key: org.key });
      status = r.body.data.status;
      body = r.body.data;
    }
    const seconds = (performance.now() - started) / 1000;
    const requests = site.seen.length;
    const implied = (requests - 1) / RATE + PAGE_DELAY_MS / 1000;
    return {
      pages: AUDIT_PAGES,
      requestsPerSecondLimit: RATE,
      status,
      pagesDone: body.pagesDone,
      pagesFailed: body.pagesFailed,
      failures: body.pages.filter((p) => p.status === 'failed' || p.status === 'skipped').slice(0, 5).map((p) => ({ url: p.url, reason: p.reason })),
      siteRequests: requests,
      seconds: Math.round(seconds * 10) / 10,
      impliedSeconds: Math.round(implied * 10) / 10,
      ratio: Math.round((seconds / implied) * 1000) / 1000,
      withinTenPercent: Math.abs(seconds / implied - 1) <= 0.1,
    };
  } finally {
    await app.close();
    await dataSource.destroy();
    await site.stop();
    await dns.close();
  }
  });
}

async function main() {
  const score = scoring();
  const run = await audit();
  process.stdout.write(JSON.stringify({ bench: 'page-audits', scoring: score, audit: run }) + '\n');
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);
