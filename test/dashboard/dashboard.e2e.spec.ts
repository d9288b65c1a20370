import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { CHROMIUM, launchChromium } from '../support/browser';
import { until } from '../support/until';
import { startDemoServer, type DemoServer } from '../support/dashboard-demo';
import { DASHBOARD_CSP } from '../../apps/dashboard/server/serve-dashboard';

/**
 * The dashboard (issue 29, DESIGN §15) in a real browser (Debian's Chromium through
 * playwright-core) against what `npm start` serves: the demo seeded into a fresh database, the
 * API with the worker. Every figure checked here is compared with the API's own answer.
 */

const ARTIFACTS = join(__dirname, '..', '.artifacts');
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

let demo: DemoServer;
let browser: Browser;
let fullKey: string;
let readOnlyKey: string;
let brandId: number;
/** Requests the pages tried to send anywhere but this server (aborted), and every URL they asked for. */
const offsite: string[] = [];
const requested: string[] = [];
/** Console errors of every page (a CSP refusal shows up here). */
const consoleErrors: string[] = [];
let receiver: Server;
let receiverUrl: string;

const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
const int = (v: number) => new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 }).format(v);
const usd = (v: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }).format(v);
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const TO = day(Date.now());
const FROM = day(Date.now() - 29 * 86_400_000);

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  receiver = createServer((_req, res) => res.writeHead(204).end());
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  // The free tier is made small for the rate-limit spec; the demo organisation is on another tier.
  demo = await startDemoServer({ opportunities: 60, env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', RATE_LIMIT_TIERS: JSON.stringify({ free: { perMinute: 120, burst: 0, perDay: 100_000 } }) } });
  fullKey = demo.seeded.keys[0].key;
  readOnlyKey = demo.seeded.keys[1].key;
  brandId = demo.seeded.brands[0].id;
  browser = await launchChromium();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await demo?.close();
  await new Promise((r) => receiver?.close(r));
});

/** A fresh browser context (its own sessionStorage) whose requests may reach this server only. */
async function newPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    requested.push(route.request().url());
    if (url.hostname === '127.0.0.1' || url.protocol === 'data:') return route.continue();
    offsite.push(route.request().url());
    return route.abort();
  });
  const page = await context.newPage();
  page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
  page.on('pageerror', (e) => consoleErrors.push(e.message));
  return { context, page };
}

async function signIn(page: Page, key: string, path = '/app'): Promise<void> {
  await page.goto(`${demo.base}${path}`);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

/** The text of a figure's value (`data-figure` / `data-value`). */
async function figure(page: Page, name: string): Promise<string> {
  const el = page.locator(`[data-figure="${name}"] [data-value]`).first();
  await el.waitFor();
  return (await el.innerText()).trim();
}

/** axe-core on the page as it stands: serious and critical violations. */
async function accessibilityProblems(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern (an injected <script> would be refused).
  await page.evaluate(axeSource);
  const violations = (await page.evaluate(
    `axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) })))`,
  )) as { id: string; impact: string; help: string; targets: string[] }[];
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.impact} ${v.id}: ${v.help} (${v.targets.join('; ')})`);
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(ARTIFACTS, `dashboard-${name}.png`), fullPage: true });
}

describe('the dashboard at /app', () => {
  it('runs on Debian\'s Chromium of the major version playwright-core is pinned to', () => {
    const bundled = (JSON.parse(readFileSync(join(dirname(require.resolve('playwright-core/package.json')), 'browsers.json'), 'utf8')) as { browsers: { name: string; browserVersion: string }[] }).browsers.find((b) => b.name === 'chromium')!.browserVersion;
    const installed = /Chromium (\d+)\./.exec(execFileSync(CHROMIUM, ['--version'], { encoding: 'utf8' }))?.[1];
    expect(installed).toBe(bundled.split('.')[0]);
    expect(browser.version().split('.')[0]).toBe(installed);
  });

  it('is served with a Content-Security-Policy that allows no inline script, and the API stays closed to other origins', async () => {
    const res = await fetch(`${demo.base}/app/brands/${brandId}/overview`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
    expect(DASHBOARD_CSP).toContain("script-src 'self'");
    expect(DASHBOARD_CSP).not.toContain('unsafe-inline');
    const html = await res.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|style=/);
    const asset = /src="(\/app\/assets\/app-[^"]+\.js)"/.exec(html)![1];
    const js = await fetch(`${demo.base}${asset}`);
    expect(js.headers.get('content-type')).toMatch(/javascript/);
    expect(js.headers.get('cache-control')).toContain('immutable');
    expect((await fetch(`${demo.base}/app/assets/nothing.js`)).status).toBe(404);
    // CORS stays closed: no Access-Control-Allow-Origin for another origin.
    const cors = await fetch(`${demo.base}/api/v1/brands`, { headers: { origin: 'http://elsewhere.example', 'x-api-key': fullKey } });
    expect(cors.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('signs in with a key kept in sessionStorage only (no cookie, never in a URL), refuses a wrong key with the API\'s words, and signing out forgets it', async () => {
    const { context, page } = await newPage();
    await page.goto(`${demo.base}/app`);
    await page.getByLabel('API key').fill('ak_live_wrong');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toMatch(/HTTP 401 · UNAUTHORIZED · request id [0-9a-f-]{36}/);
    await page.getByLabel('API key').fill(fullKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(new RegExp(`/app/brands/${brandId}/overview`));
    expect(await page.evaluate('Object.values(sessionStorage)')).toEqual([fullKey]);
    expect(await page.evaluate('localStorage.length')).toBe(0);
    expect(await context.cookies()).toEqual([]);
    await figure(page, 'mentionRate');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
    await page.reload();
    await page.getByLabel('API key').waitFor();
    expect(requested.filter((u) => u.includes(fullKey))).toEqual([]);
    await context.close();
  });

  it('overview: the figures are the API\'s, with n, the change against the previous period and its test, the share-of-voice chart drawn with its table', async () => {
    const { context, page } = await newPage();
    await signIn(page, fullKey, `/app/brands/${brandId}/overview?from=${FROM}&to=${TO}`);
    const aeo = (await demo.api(`/aeo/metrics?brandId=${brandId}&startDate=${FROM}&endDate=${TO}`, fullKey)).body.data;
    const geo = (await demo.api(`/geo/metrics?brandId=${brandId}&startDate=${FROM}&endDate=${TO}`, fullKey)).body.data;
    const index = (await demo.api(`/brand-index/latest?brandId=${brandId}`, fullKey)).body.data;
    expect(await figure(page, 'mentionRate')).toBe(pct(aeo.overall.mentionRate.value));
    expect(await figure(page, 'citationRate')).toBe(pct(geo.overall.citationRate.value));
    expect(await figure(page, 'brandIndex')).toBe(index.value.toFixed(1));
    const mention = await page.locator('[data-figure="mentionRate"]').innerText();
    expect(mention).toContain(`answers = ${int(aeo.overall.mentionRate.n)}`);
    expect(mention).toMatch(/(not significant|significant) p (=|<) [0-9.]+/);
    // The chart is drawn, a band per entity, and its data is a table too.
    await page.locator('.plot[data-drawn="true"]').waitFor();
    expect(await page.locator('.legend li').allInnerTexts()).toEqual(expect.arrayContaining([expect.stringContaining('Acme CRM'), expect.stringContaining('HubSpot')]));
    expect(await accessibilityProblems(page)).toEqual([]);
    await shoot(page, 'overview');
    await page.locator('figure.chart summary').first().click();
    await page.locator('figure.chart table tbody tr').first().waitFor();
    expect(await page.locator('figure.chart table tbody tr').count()).toBe(30);
    expect(await accessibilityProblems(page)).toEqual([]);
    // The market filter: typed in the top bar, kept in the URL, passed to the reads (the demo asks without a market: none in DE).
    const de = (await demo.api(`/aeo/metrics?brandId=${brandId}&startDate=${FROM}&endDate=${TO}&country=DE`, fullKey)).body.data;
    expect(de.overall.mentionRate.n).toBe(0);
    await page.getByLabel('Country').fill('de');
    await page.getByLabel('Country').press('Tab');
    await page.waitForURL(/[?&]country=de/);
    await page.locator('.context', { hasText: 'market DE' }).waitFor();
    await page.locator('[data-figure="mentionRate"]', { hasText: 'answers = 0' }).waitFor({ timeout: 15_000 });
    expect(await accessibilityProblems(page)).toEqual([]);
    await context.close();
  });

  it('works from the keyboard: a skip link first, every control reachable with Tab, a visible focus, links followed with Enter', async () => {
    const { context, page } = await newPage();
    await signIn(page, fullKey, `/app/brands/${brandId}/overview?from=${FROM}&to=${TO}`);
    await figure(page, 'mentionRate');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Skip to content');
    const focused: string[] = [];
    const unmarked: string[] = [];
    for (let i = 0; i < 20; i++) {
      await page.keyboard.press('Tab');
      const label = (await page.evaluate(`(() => { const e = document.activeElement; return (e.labels && e.labels[0] ? e.labels[0].innerText : e.textContent || '').trim().split('\\n')[0]; })()`)) as string;
      focused.push(label);
      // Every focused control shows it: an outline of its own (:focus-visible).
      const outline = await page.evaluate('getComputedStyle(document.activeElement).outlineStyle');
      if (outline === 'none') unmarked.push(`${label} <${await page.evaluate('document.activeElement.tagName')}>`);
      if (label === 'Opportunities') break;
    }
    expect(focused).toEqual(expect.arrayContaining(['Brand', 'Period', 'From', 'To', 'Sign out', 'Overview', 'Answers', 'Opportunities']));
    expect(unmarked).toEqual([]);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/opportunities\?from=/);
    await figure(page, 'open');
    await context.close();
  });

  it('every other page renders its figures from the API, passes the accessibility check and is captured', async () => {
    const { context, page } = await newPage();
    await signIn(page, fullKey);
    const q = `?from=${FROM}&to=${TO}`;

    // Answers: a run's answers, one answer with its entities and citations marked.
    const runs = (await demo.api(`/analysis-runs?brandId=${brandId}&limit=1`, fullKey)).body;
    const run = runs.data[0];
    const results = (await demo.api(`/analysis-runs/${run.id}/results?limit=200`, fullKey)).body;
    const one = results.data.find((r: { answer: string | null }) => r.answer);
    await page.goto(`${demo.base}/app/brands/${brandId}/answers${q}&run=${run.id}&result=${one.id}`);
    await page.getByRole('heading', { name: `Run ${run.id}: ${results.meta.total} answers` }).waitFor();
    const marked = await page.locator('.answer-text mark').allInnerTexts();
    const mentioned = one.entities.filter((e: { mentioned: boolean }) => e.mentioned).map((e: { name: string }) => e.name);
    expect(mentioned.length).toBeGreaterThan(0);
    for (const name of mentioned) expect(marked).toContain(name);
    expect(await accessibilityProblems(page)).toEqual([]);
    await shoot(page, 'answers');

    // Citations and prompts: the top domain and its consensus score.
    const top = (await demo.api(`/citation-sources/top?brandId=${brandId}&range=30&limit=25`, fullKey)).body.data;
    await page.goto(`${demo.base}/app/brands/${brandId}/citations${q}`);
    const firstRow = page.locator('#domains-title').locator('xpath=../..').locator('tbody tr').first();
    await firstRow.waitFor();
    expect(await firstRow.innerText()).toContain(top.domains[0].domain);
    expect(await firstRow.innerText()).toContain(top.domains[0].consensusScore.toFixed(1));
    expect(await accessibilityProblems(page)).toEqual([]);
    await shoot(page, 'citations');

    // AI bots: visits as the API counts them, verified / spoofed / unverified by bot.
    const bots = (await demo.api(`/agent-analytics/overview?brandId=${brandId}&days=30`, fullKey)).body.data;
    const byBot = (await demo.api(`/agent-analytics/bots?brandId=${brandId}&days=30`, fullKey)).body.data as { botName: string; visits: number; verifiedVisits: number; spoofedVisits: number }[];
    expect(bots.visits).toBeGreaterThan(0);
    await page.goto(`${demo.base}/app/brands/${brandId}/bots${q}`);
    expect(await figure(page, 'botVisits')).toBe(int(bots.visits));
    const gpt = byBot.find((b) => b.botName === 'GPTBot')!;
    const gptRow = page.locator('#bots-title').locator('xpath=../..').locator('tbody tr', { hasText: 'GPTBot' });
    expect((await gptRow.innerText()).split(/\s+/)).toEqual(expect.arrayContaining([int(gpt.visits), int(gpt.verifiedVisits), int(gpt.spoofedVisits)]));
    await page.locator('.plot[data-drawn="true"]').waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);
    await shoot(page, 'bots');

    // Channels: AI-referred sessions summed over the period.
    const metrics = (await demo.api(`/metrics?brandId=${brandId}&startDate=${FROM}&endDate=${TO}&limit=200`, fullKey)).body.data as { aiSessions: number | null }[];
    await page.goto(`${demo.base}/app/brands/${brandId}/channels${q}`);
    expect(await figure(page, 'aiSessions')).toBe(int(metrics.reduce((a, r) => a + (r.aiSessions ?? 0), 0)));
    await page.locator('.plot[data-drawn="true"]').waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);
    await shoot(page, 'channels');

    // Opportunities: the queue's KPIs.
    const kpis = (await demo.api(`/opportunities/_summary/kpis?brandId=${brandId}`, fullKey)).body.data;
    await page.goto(`${demo.base}/app/brands/${brandId}/opportunities${q}`);
    expect(await figure(page, 'open')).toBe(int(kpis.open));
    await page.getByLabel('Severity').selectOption('critical');
    await page.waitForURL(/severity=critical/);
    const critical = (await demo.api(`/opportunities?brandId=${brandId}&severity=critical&limit=1`, fullKey)).body.meta.total;
    await page.getByRole('heading', { name: `${int(critical)} opportunities (open)` }).waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);
    await shoot(page, 'opportunities');

    // Webhooks: a subscription, its deliveries, a test event sent with the button.
    const hook = await demo.api('/webhooks', fullKey, { method: 'POST', body: { url: receiverUrl, events: ['opportunity.opened'], description: 'browser spec' } });
    expect(hook.status).toBe(201);
    await page.goto(`${demo.base}/app/brands/${brandId}/webhooks${q}&webhook=${hook.body.data.id}`);
    await page.getByRole('button', { name: 'Send a test event' }).click();
    await page.getByText(/A signed webhook.test event was queued/).waitFor();
    await page.locator('#deliveries-title').locator('xpath=../..').getByText('webhook.test').first().waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);
    await shoot(page, 'webhooks');
    await context.close();
  });

  it('the closed loop: the resolved opportunity shows its evidence, its verification, its history and its outcome in money', async () => {
    const story = demo.seeded.loop!.stories.find((s) => s.name === 'resolved')!;
    const o = (await demo.api(`/opportunities/${story.opportunityId}`, fullKey)).body.data;
    expect(o.status).toBe('resolved');
    const { context, page } = await newPage();
    await signIn(page, fullKey, `/app/brands/${brandId}/opportunities/${o.id}`);
    expect(await figure(page, 'verification')).toBe('passed');
    expect(await figure(page, 'outcomeRevenue')).toBe(usd(o.outcome.revenue));
    const history = await page.locator('.timeline li').allInnerTexts();
    expect(history[0]).toContain('Detected');
    expect(history.join('\n')).toMatch(/verifying → resolved/);
    expect(history.join('\n')).toContain('Outcome finalised');
    // An example answer links to the Answers page, which shows it.
    await page.locator('.examples a').first().click();
    await page.waitForURL(/\/answers\?run=\d+&result=/);
    await page.locator('.answer-text').waitFor();
    await page.goBack();
    await figure(page, 'verification');
    expect(await accessibilityProblems(page)).toEqual([]);
    await shoot(page, 'opportunity');
    await context.close();
  });

  it('lifecycle moves: the allowed moves are buttons, a move lands, a refused move shows the API\'s error, and a read-only key sees no buttons', async () => {
    const list = (await demo.api(`/opportunities?brandId=${brandId}&status=detected&limit=2`, fullKey)).body.data as { id: number }[];
    expect(list.length).toBe(2);
    const [a, b] = list;
    const { context, page } = await newPage();
    await signIn(page, fullKey, `/app/brands/${brandId}/opportunities/${a.id}`);
    await page.locator('[data-move]').first().waitFor();
    expect((await page.locator('[data-move]').evaluateAll((els) => els.map((e) => e.getAttribute('data-move')))).sort()).toEqual(['assigned', 'dismissed', 'triaged']);
    await page.getByLabel('Reason (kept in the history)').fill('Checked by the browser spec');
    await page.locator('[data-move="triaged"]').click();
    await page.locator('[data-figure="status"]').getByText('triaged').waitFor();
    expect((await demo.api(`/opportunities/${a.id}`, fullKey)).body.data.status).toBe('triaged');
    expect(await page.locator('.timeline').innerText()).toContain('Checked by the browser spec');

    // Someone else moves b while the page shows it: the page's move, decided on the version it shows, is refused (409) in the API's words.
    await page.goto(`${demo.base}/app/brands/${brandId}/opportunities/${b.id}`);
    await page.locator('[data-move="dismissed"]').waitFor();
    const shown = (await demo.api(`/opportunities/${b.id}`, fullKey)).body.data.version;
    expect((await demo.api(`/opportunities/${b.id}/transition`, fullKey, { method: 'POST', body: { toStatus: 'triaged' } })).status).toBe(200);
    await page.locator('[data-move="dismissed"]').click();
    const refused = page.getByRole('alert');
    await refused.waitFor();
    const stale = await demo.api(`/opportunities/${b.id}/transition`, fullKey, { method: 'POST', body: { toStatus: 'dismissed', expectedVersion: shown } });
    expect(stale.status).toBe(409);
    expect(await refused.innerText()).toContain(stale.body.error.message);
    expect(await refused.innerText()).toContain('HTTP 409 · CONFLICT');
    expect((await demo.api(`/opportunities/${b.id}`, fullKey)).body.data.status).toBe('triaged');
    // The page catches up, then a move the API refuses for its content (no owner to assign) is shown as the API words it.
    await page.getByRole('button', { name: 'Show the current state' }).click();
    await page.locator('[data-figure="status"]').getByText('triaged').waitFor();
    await page.getByLabel('Owner (for “assigned”)').fill('');
    await page.locator('[data-move="assigned"]').click();
    const invalid = page.getByRole('alert');
    await invalid.waitFor();
    expect(await invalid.innerText()).toMatch(/HTTP 400 · VALIDATION_ERROR/);
    expect(await invalid.innerText()).toMatch(/owner/i);
    await context.close();

    const reader = await newPage();
    await signIn(reader.page, readOnlyKey, `/app/brands/${brandId}/opportunities/${b.id}`);
    await reader.page.getByText(/lacks write:opportunities/).waitFor();
    expect(await reader.page.locator('[data-move]').count()).toBe(0);
    await reader.context.close();
  });

  it('a brand of another organisation, or none, in the URL is "not found"; an unknown page too', async () => {
    const tenancy = demo.app.get((await import('@libs/tenancy')).TenancyRepository);
    const other = await tenancy.createOrganization('Other Org', 'free');
    const foreign = await tenancy.createBrand({ organizationId: other.id, name: 'Foreign', domain: 'foreign.example', competitors: [] });
    const { context, page } = await newPage();
    await signIn(page, fullKey, `/app/brands/${foreign.id}/overview`);
    await page.getByRole('heading', { name: 'Not found' }).waitFor();
    expect(await page.locator('main').innerText()).toContain(`No brand with id "${foreign.id}"`);
    expect(await page.locator('main').innerText()).not.toContain('Foreign');
    await page.goto(`${demo.base}/app/brands/abc/overview`);
    await page.getByRole('heading', { name: 'Not found' }).waitFor();
    await page.goto(`${demo.base}/app/brands/${brandId}/nowhere`);
    await page.getByRole('heading', { name: 'Not found' }).waitFor();
    await context.close();
  });

  it('a key the API stops accepting (401) returns to sign-in and is forgotten', async () => {
    const keys = demo.app.get((await import('@libs/auth')).ApiKeysRepository);
    const created = await keys.create({ organizationId: demo.seeded.organization.id, scopes: ['read:brands', 'read:visibility', 'read:sentiment'], name: 'to revoke' });
    const { context, page } = await newPage();
    await signIn(page, created.key);
    await keys.revoke(created.id);
    // The API trusts a cached credential for a few seconds (revocations it is told about go at once).
    await until(async () => (await demo.api('/brands', created.key)).status === 401, 15_000, 'the API to refuse the revoked key');
    await page.getByRole('link', { name: 'Answers' }).click();
    await page.getByLabel('API key').waitFor();
    expect(await page.getByText(/refused the key \(401\)/).count()).toBe(1);
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
    await context.close();
  });

  it('waits out a 429 for its Retry-After, saying so, then shows the figures; a brand without answers reads "no data", never 0', async () => {
    const tenancy = demo.app.get((await import('@libs/tenancy')).TenancyRepository);
    const keys = demo.app.get((await import('@libs/auth')).ApiKeysRepository);
    const org = await tenancy.createOrganization('Small Org', 'free');
    const quiet = await tenancy.createBrand({ organizationId: org.id, name: 'Quiet Brand', domain: 'quiet.example', competitors: [{ name: 'Loud', domain: 'loud.example' }] });
    const { key } = await keys.create({ organizationId: org.id, scopes: ['read:brands', 'read:visibility', 'read:sentiment'], tier: 'free', name: 'small' });
    // Spend the key's minute: its next requests are refused with a Retry-After.
    await until(async () => (await demo.api('/brands', key)).status === 429, 30_000, 'the key to be rate limited');
    const { context, page } = await newPage();
    await page.goto(`${demo.base}/app`);
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText(/rate limit was reached: waiting \d+ s/).or(page.getByRole('button', { name: 'Sign out' })).first().waitFor();
    await page.goto(`${demo.base}/app/brands/${quiet.id}/overview`);
    await page.getByText(/The API's rate limit was reached: waiting \d+ s \(its Retry-After\)/).waitFor();
    expect(await figure(page, 'mentionRate')).toBe('no data');
    expect(await figure(page, 'shareOfVoice')).toBe('no data');
    expect(await page.locator('[data-figure="mentionRate"]').innerText()).toContain('answers = 0');
    expect(await page.locator('#sov-chart-title').locator('xpath=../..').innerText()).toContain('No mentions of tracked entities in this period.');
    expect(await page.getByRole('alert').count()).toBe(0);
    await context.close();
  }, 120_000);

  it('asked for nothing outside this server and broke no Content-Security-Policy rule', () => {
    expect(offsite).toEqual([]);
    expect(consoleErrors.filter((e) => /Content Security Policy|Refused to/i.test(e))).toEqual([]);
  });
});
