import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { ApiKeysRepository } from '@libs/auth';
import { createDataSource } from '@libs/database';
import { addDays, utcDay } from '@libs/metrics';
import { TenancyRepository } from '@libs/tenancy';
import { round, withBenchDatabase } from './support/bench-database';
import { compare, startServer } from './support/http-load';

/**
 * npm run bench:channels — prints one JSON line:
 * - BENCH_CLIENTS (200) clients x BENCH_CHANNELS (4: ga4, search_console, import, ai_referrals)
 *   channels x BENCH_DAYS (365) days of daily metric rows (292,000 with the defaults), written by SQL;
 * - GET /api/v1/metrics of one client over the year (a page of 50, newest first, with its total)
 *   at 50 connections against a bare Fastify + pg server running the same statement, alternating
 *   in the same run: requests/s and p99 of each side and their ratios (goals: at least 0.5, at most 1.5);
 * - an import of a BENCH_IMPORT_ROWS (100,000) row CSV (20 brands of a client, a row per day and brand)
 *   through POST /api/v1/channels/{id}/imports: seconds from the request to the answer (goal: under 5).
 */
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 200);
const CHANNELS = Math.min(4, Number(process.env.BENCH_CHANNELS ?? 4));
const DAYS = Number(process.env.BENCH_DAYS ?? 365);
const IMPORT_ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);
const IMPORT_BRANDS = 20;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const KINDS = ['ga4', 'search_console', 'import', 'ai_referrals'];

async function main(): Promise<void> {
  await withBenchDatabase('channels', async (url) => {
    const ds = createDataSource(url, 4);
    await ds.initialize();
    const children: ChildProcess[] = [];
    try {
      const tenancy = new TenancyRepository(ds);
      const org = await tenancy.createOrganization('Bench', 'enterprise');
      const key = (await new ApiKeysRepository(ds).create({ organizationId: org.id, scopes: ['read:metrics', 'write:metrics'], tier: 'enterprise' })).key;
      const s0 = performance.now();
      await ds.query(`INSERT INTO clients (organization_id, name) SELECT $1, 'Client ' || g FROM generate_series(1, $2) g`, [org.id, CLIENTS]);
      await ds.query(`INSERT INTO brands (organization_id, client_id, name, domain) SELECT $1, id, 'Brand ' || id, 'brand' || id || '.example' FROM clients WHERE organization_id = $1`, [org.id]);
      await ds.query(
        `INSERT INTO channels (organization_id, client_id, kind, name, brand_id)
         SELECT $1, c.id, k.kind, k.kind, b.id FROM clients c JOIN brands b ON b.client_id = c.id, unnest($2::text[]) AS k(kind) WHERE c.organization_id = $1`,
        [org.id, KINDS.slice(0, CHANNELS)],
      );
      const end = addDays(utcDay(Date.now()), -1);
      const start = addDays(end, -(DAYS - 1));
      await ds.query(
        `INSERT INTO channel_metrics_daily (organization_id, client_id, channel_id, channel, brand_id, day, sessions, users, new_users, pageviews, conversions, revenue, impressions, clicks, ai_sessions)
         SELECT ch.organization_id, ch.client_id, ch.id, ch.kind, ch.brand_id, d::date,
                CASE WHEN ch.kind <> 'search_console' THEN 100 + (ch.id * 7 + extract(doy FROM d)::int) % 500 END,
                CASE WHEN ch.kind IN ('ga4', 'import') THEN 80 + (ch.id * 3 + extract(doy FROM d)::int) % 400 END,
                CASE WHEN ch.kind IN ('ga4', 'import') THEN 20 + extract(doy FROM d)::int % 50 END,
                CASE WHEN ch.kind IN ('ga4', 'import') THEN 300 + extract(doy FROM d)::int % 900 END,
                CASE WHEN ch.kind IN ('ga4', 'import') THEN extract(doy FROM d)::int % 17 END,
                CASE WHEN ch.kind IN ('ga4', 'import') THEN (extract(doy FROM d)::int % 97) * 12.5 END,
                CASE WHEN ch.kind = 'search_console' THEN 1000 + extract(doy FROM d)::int * 3 END,
                CASE WHEN ch.kind = 'search_console' THEN 40 + extract(doy FROM d)::int % 60 END,
                CASE WHEN ch.kind IN ('ga4', 'ai_referrals') THEN 5 + extract(doy FROM d)::int % 30 END
           FROM channels ch, generate_series($2::date, $3::date, interval '1 day') d
          WHERE ch.organization_id = $1`,
        [org.id, start, end],
      );
      const seedSeconds = (performance.now() - s0) / 1000;
      await ds.query('VACUUM ANALYZE channel_metrics_daily');
      const [{ rows }] = await ds.query('SELECT count(*)::int AS rows FROM channel_metrics_daily');
      const [client] = await ds.query(`SELECT id FROM clients WHERE organization_id = $1 ORDER BY id LIMIT 1 OFFSET $2`, [org.id, Math.floor(CLIENTS / 2)]);

      const env = { DATABASE_URL: url, REDIS_PREFIX: `bench_${process.pid}_${randomUUID().slice(0, 6)}`, LOG_LEVEL: 'warn', RATE_LIMIT_TIERS: JSON.stringify({ enterprise: { perMinute: 1_000_000_000, perDay: 1_000_000_000_000, burst: 1_000_000 } }) };
      children.push(await startServer('apps/api/src/main.ts', { ...env, PORT: '3821', HOST: '127.0.0.1' }, 'http://127.0.0.1:3821/health'));
      children.push(await startServer('bench/support/channels-baseline-server.ts', { ...env, BASELINE_PORT: '3822', BASELINE_ORG: String(org.id) }, `http://127.0.0.1:3822/metrics?clientId=${client.id}`));
      const query = `clientId=${client.id}&startDate=${start}&endDate=${end}`;
      const metrics = await compare(`http://127.0.0.1:3821/api/v1/metrics?${query}`, `http://127.0.0.1:3822/metrics?${query}`, { 'x-api-key': key }, SECONDS);

      // The import: a new import channel of the first client, a CSV of IMPORT_ROWS rows.
      const [first] = await ds.query(`SELECT c.id AS client_id, b.id AS brand_id FROM clients c JOIN brands b ON b.client_id = c.id WHERE c.organization_id = $1 ORDER BY c.id LIMIT 1`, [org.id]);
      const created = await fetch('http://127.0.0.1:3821/api/v1/channels', {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ clientId: Number(first.client_id), kind: 'import', name: 'Bench import', brandId: Number(first.brand_id) }),
      });
      const channelId = ((await created.json()) as { data: { id: number } }).data.id;
      // Imports take days from 2000-01-01 to tomorrow, so the rows are spread over IMPORT_BRANDS brands of
      // the client (a row is a day and a brand): 100,000 rows are 5,000 days of 20 brands.
      const extra: { id: number }[] = await ds.query(
        `INSERT INTO brands (organization_id, client_id, name, domain) SELECT $1, $2, 'Import brand ' || g, 'import' || g || '.example' FROM generate_series(2, $3) g RETURNING id`,
        [org.id, first.client_id, IMPORT_BRANDS],
      );
      const brandIds = [Number(first.brand_id), ...extra.map((b) => Number(b.id))];
      const lines = ['date,brandId,sessions,users,conversions,revenue,aiSessions'];
      for (let i = 0; i < IMPORT_ROWS; i++) {
        lines.push(`${addDays('2000-01-01', Math.floor(i / IMPORT_BRANDS))},${brandIds[i % IMPORT_BRANDS]},${100 + (i % 500)},${80 + (i % 400)},${i % 17},${(i % 97) * 12.5},${i % 30}`);
      }
      const csv = lines.join('\n') + '\n';
      const i0 = performance.now();
      const imported = await fetch(`http://127.0.0.1:3821/api/v1/channels/${channelId}/imports`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'text/csv' }, body: csv });
      const importSeconds = (performance.now() - i0) / 1000;
      const body = (await imported.json()) as { data?: { rows: number } };
      if (imported.status !== 201) throw new Error(`import answered ${imported.status}: ${JSON.stringify(body).slice(0, 300)}`);

      console.log(
        JSON.stringify({
          clients: CLIENTS,
          channelsPerClient: CHANNELS,
          days: DAYS,
          metricRows: rows,
          seedSeconds: round(seedSeconds, 1),
          metricsYear: metrics,
          import: { rows: body.data!.rows, megabytes: round(csv.length / 1024 / 1024, 1), seconds: round(importSeconds, 2), rowsPerSecond: round(body.data!.rows / importSeconds), goalSeconds: 5 },
          goals: { rpsRatioAtLeast: 0.5, p99RatioAtMost: 1.5 },
        }),
      );
    } finally {
      for (const c of children) c.kill('SIGTERM');
      await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)))));
      await ds.destroy();
    }
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
