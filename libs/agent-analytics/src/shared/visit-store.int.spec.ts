import { DataSource, type Logger } from 'typeorm';
import { dataSourceOptions } from '@libs/database';
import { loadConfig, sectionOf } from '@libs/config';
import { addDays, utcDay } from '@libs/metrics';
import { TenancyRepository } from '@libs/tenancy';
import { createTestDatabase, type TestDatabase } from '../../../../test/support/test-database';
import { until } from '../../../../test/support/until';
import { AGENT_ANALYTICS_CONFIG, type AgentAnalyticsConfig } from '../agent-analytics.config';
import { BotClassifier } from '../domain/classify';
import { MAX_BYTES, MAX_DURATION_MS, visitFromEntry, type Visit } from '../domain/visit';
import { AgentEgress } from './agent-egress';
import { BotRanges } from './bot-ranges';
import { BotVerifier } from './bot-verifier';
import { SiteRobots } from './site-robots';
import { VisitIngester } from './visit-ingester';
import { PAGE_PATH_MAX_BYTES, VisitStore, VisitWrite, type BotVisitRow } from './visit-store';
import { WebBotAuth } from './web-bot-auth';

/**
 * The store against PostgreSQL: every value the validation lets through is one its column holds
 * (issue 28, items 1 and 2), bot visits of several days in one transaction, ingestion's share of
 * the pool, and the published ranges reloaded once however many visits ask (item 3).
 */
let db: TestDatabase;
let ds: DataSource;
let config: AgentAnalyticsConfig;
let org: number;
/** Statements that read agent_bot_ranges, as the database was sent them. */
let rangeQueries = 0;

const counting: Logger = {
  logQuery: (query: string) => {
    if (/FROM agent_bot_ranges/i.test(query)) rangeQueries++;
  },
  logQueryError: () => undefined,
  logQuerySlow: () => undefined,
  logSchemaBuild: () => undefined,
  logMigration: () => undefined,
  log: () => undefined,
};

beforeAll(async () => {
  db = await createTestDatabase();
  ds = await new DataSource({ ...dataSourceOptions(db.url, 8), logging: ['query'], logger: counting }).initialize();
  config = sectionOf(loadConfig({ ...process.env, DATABASE_URL: db.url, AGENT_DNS_SERVERS: 'off', AGENT_ROBOTS_URL_TEMPLATE: 'off', AGENT_RANGES_RELOAD_MS: '300', AGENT_INGEST_CONNECTIONS: '2' }, [AGENT_ANALYTICS_CONFIG]), AGENT_ANALYTICS_CONFIG);
  org = (await new TenancyRepository(ds).createOrganization('Store', 'enterprise')).id;
});
afterAll(async () => {
  await ds?.destroy();
  await db?.drop();
});

const D1 = addDays(utcDay(Date.now()), -1);
const GPT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';
const classifier = new BotClassifier();

/** An entry as the API takes it, through the API's validation, as the row the store is given. */
function row(entry: Record<string, unknown>): BotVisitRow {
  const r = visitFromEntry({ timestamp: `${D1}T10:00:00Z`, method: 'GET', host: 'acme.example', path: '/', status: 200, ip: '20.171.206.1', userAgent: GPT, ...entry }, 'entry', Date.now());
  if ('problems' in r) throw new Error(JSON.stringify(r.problems));
  const bot = classifier.classify(r.visit.userAgent)!;
  const { headers: _headers, ...visit } = r.visit;
  return { ...visit, organizationId: org, brandId: null, botName: bot.name, category: bot.category, verification: 'unverifiable', verifiedBy: null, robotsDisallowed: null };
}

describe('every value the validation accepts is one the columns hold', () => {
  it('stores addresses, numbers at their bounds and long multi-byte texts exactly, and the rollups keep the page within a B-tree entry', async () => {
    const store = new VisitStore(ds, config);
    const longPage = `/${'页'.repeat(4000)}`;
    const rows = [
      row({ ip: 'fe80::1%eth0', path: '/zone' }),
      row({ ip: '::ffff:20.171.206.9', path: '/mapped' }),
      row({ ip: '2001:db8::1', path: '/v6', bytes: MAX_BYTES, durationMs: MAX_DURATION_MS }),
      { ...row({ ip: '0.0.0.0', path: '/zero', bytes: 0, durationMs: 0, status: 599, timestamp: `${D1}T23:59:59.999Z` }), brandId: 2 ** 40, verification: 'verified', verifiedBy: 'ip-range', robotsDisallowed: true },
      row({ path: longPage, userAgent: `${GPT} ${'ü'.repeat(900)}`, referer: `https://chatgpt.com/${'é'.repeat(4000)}`, method: 'PROPFIND' }),
    ];
    expect(await store.write(rows, [])).toBeNull();
    const stored: { path: string; ip: string; bytes: string | null; duration_ms: number | null; status: number; user_agent: string; referer: string | null; method: string }[] = await ds.query(
      `SELECT path, host(ip) AS ip, bytes::text AS bytes, duration_ms, status, user_agent, referer, method FROM bot_visits WHERE organization_id = $1 ORDER BY path`,
      [org],
    );
    expect(stored.map((s) => [s.path.slice(0, 8), s.ip])).toEqual([
      ['/mapped', '20.171.206.9'],
      ['/v6', '2001:db8::1'],
      ['/zero', '0.0.0.0'],
      ['/zone', 'fe80::1'],
      [longPage.slice(0, 8), '20.171.206.1'],
    ]);
    expect(stored[1]).toMatchObject({ bytes: String(MAX_BYTES), duration_ms: MAX_DURATION_MS });
    expect(stored[2]).toMatchObject({ bytes: '0', duration_ms: 0, status: 599 });
    const [zero] = await ds.query(`SELECT visited_at, brand_id::text AS brand, verification, verified_by, robots_disallowed FROM bot_visits WHERE organization_id = $1 AND path = '/zero'`, [org]);
    expect(zero).toEqual({ visited_at: new Date(`${D1}T23:59:59.999Z`), brand: String(2 ** 40), verification: 'verified', verified_by: 'ip-range', robots_disallowed: true });
    expect(stored[4]).toMatchObject({ path: longPage, user_agent: rows[4].userAgent, referer: rows[4].referer, method: 'PROPFIND' });
    const [page] = await ds.query(`SELECT octet_length(path) AS bytes, path FROM agent_page_daily WHERE organization_id = $1 AND path LIKE '/页%'`, [org]);
    expect(page.bytes).toBeLessThanOrEqual(PAGE_PATH_MAX_BYTES);
    expect(longPage.startsWith(page.path)).toBe(true);
  });

  it('writes the bot visits of several days in one transaction, their partitions made first', async () => {
    const store = new VisitStore(ds, config);
    const days = [addDays(D1, -3), addDays(D1, -2), addDays(D1, -3), D1, addDays(D1, -2)];
    await store.write(days.map((d, i) => row({ timestamp: `${d}T0${i}:00:00Z`, path: `/days/${i}` })), []);
    const stored: { day: string; n: number }[] = await ds.query(`SELECT to_char(visited_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS n FROM bot_visits WHERE organization_id = $1 AND path LIKE '/days/%' GROUP BY 1 ORDER BY 1`, [org]);
    expect(stored).toEqual([
      { day: addDays(D1, -3), n: 2 },
      { day: addDays(D1, -2), n: 2 },
      { day: D1, n: 1 },
    ]);
  });
});

describe('a write given up', () => {
  it('rolled back in the middle of its COPY stores nothing and frees its slot and connection', async () => {
    const store = new VisitStore(ds, config);
    const w = (await store.begin()) as VisitWrite;
    for (let i = 0; i < 2000; i++) {
      const wait = w.addBot(row({ path: `/given-up/${i}` }));
      if (wait) await wait;
    }
    await w.rollback();
    const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM bot_visits WHERE path LIKE '/given-up/%'`);
    expect(n).toBe(0);
    // Both slots are free again (AGENT_INGEST_CONNECTIONS is 2 here), and their connections work.
    const again = (await Promise.all([store.begin(), store.begin()])) as VisitWrite[];
    for (const a of again) await a.commit();
    expect(await store.write([row({ path: '/given-up/after' })], [])).toBeNull();
    expect((await ds.query(`SELECT count(*)::int AS n FROM bot_visits WHERE path LIKE '/given-up/%'`))[0].n).toBe(1);
  });
});

describe("ingestion's share of the pool", () => {
  it('holds at most AGENT_INGEST_CONNECTIONS write transactions at once: the next waits for one to end', async () => {
    const store = new VisitStore(ds, config);
    const first = (await store.begin()) as VisitWrite;
    const second = (await store.begin()) as VisitWrite;
    let third: VisitWrite | null = null;
    const waiting = store.begin().then((w) => (third = w as VisitWrite));
    await new Promise((r) => setTimeout(r, 300));
    expect(third).toBeNull();
    // The pool has connections left for everyone else meanwhile.
    expect(await ds.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    await first.commit();
    await waiting;
    expect(third).toBeInstanceOf(VisitWrite);
    await second.rollback();
    await third!.commit();
  });
});

function ingester(): VisitIngester {
  const egress = new AgentEgress(config);
  const verifier = new BotVerifier(new BotRanges(ds, config), new WebBotAuth(config, egress), config);
  return new VisitIngester(new TenancyRepository(ds), verifier, new SiteRobots(ds, egress, config), config);
}

describe('the published ranges, once stale', () => {  const visit = (i: number): Visit => ({ at: Date.now() - 3600_000, method: 'GET', host: 'acme.example', path: `/p/${i}`, status: 200, ip: `20.171.206.${i % 250}`, userAgent: GPT, referer: null, bytes: null, durationMs: null, headers: null });

  it('are reloaded by one query however many ask at once, the old ones serving meanwhile', async () => {
    const ing = ingester();
    rangeQueries = 0;
    const fresh = await ing.verifier.ranges.current();
    expect(rangeQueries).toBe(1);
    await new Promise((r) => setTimeout(r, config.rangesReloadMs + 50));
    // Stale: 10,000 asks at the same moment all have the old ranges at once, and cost one query.
    const asked = await Promise.all(Array.from({ length: 10_000 }, () => ing.verifier.ranges.current()));
    expect(asked.every((t) => t === fresh)).toBe(true);
    await until(async () => (await ing.verifier.ranges.current()) !== fresh, 5000, 'the reloaded ranges');
    expect(rangeQueries).toBe(2);
  });

  it('cost a batch of 10,000 bot visits one query when stale, whether judged at once or one by one', async () => {
    const ing = ingester();
    await ing.verifier.ranges.current();
    await new Promise((r) => setTimeout(r, config.rangesReloadMs + 50));
    rangeQueries = 0;
    const intake = await ing.intake({ organizationId: org, clientId: null });
    const kept = Array.from({ length: 10_000 }, (_, i) => intake.keep(visit(i)));
    expect(kept.every((k) => k && 'bot' in k && k.settle === null && k.bot.verification === 'verified')).toBe(true);
    const gpt = classifier.classify(GPT)!;
    const verdicts = await Promise.all(Array.from({ length: 10_000 }, (_, i) => ing.verifier.verify(gpt, visit(i))));
    expect(verdicts.every((v) => v.verification === 'verified')).toBe(true);
    expect(rangeQueries).toBe(1);
  });

  it('a failed reload keeps the ranges held', async () => {
    const ing = ingester();
    const held = await ing.verifier.ranges.current();
    await new Promise((r) => setTimeout(r, config.rangesReloadMs + 50));
    await ds.query('ALTER TABLE agent_bot_ranges RENAME TO agent_bot_ranges_away');
    try {
      expect(await ing.verifier.ranges.current()).toBe(held);
      await new Promise((r) => setTimeout(r, 100));
      expect(await ing.verifier.ranges.current()).toBe(held);
    } finally {
      await ds.query('ALTER TABLE agent_bot_ranges_away RENAME TO agent_bot_ranges');
    }
  });
});
