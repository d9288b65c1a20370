import { ADMIN_URL, createTestDatabase, testRedisPrefix, type TestDatabase } from './support/test-database';
import { exited, freePort, startApp, until } from './support/processes';

/** Start-up refuses bad configuration and unreachable dependencies with one clear line and exit code 1. */
describe('process start-up', () => {
  it('reports each malformed setting on its own line and exits 1', async () => {
    const api = startApp('api', { PORT: 'eighty', REDIS_URL: 'http://x', EVENT_STORE: 'mongo' });
    expect(await exited(api)).toBe(1);
    const lines = api.output().trim().split('\n');
    expect(lines).toEqual([
      expect.stringMatching(/^configuration error: PORT: "eighty" is not an integer/),
      expect.stringMatching(/^configuration error: REDIS_URL: "http:\/\/x" must start with redis:\/\//),
      expect.stringMatching(/^configuration error: EVENT_STORE: "mongo" is not one of postgres, eventstoredb/),
    ]);
  });

  it('names DATABASE_URL and the address when PostgreSQL is unreachable', async () => {
    const worker = startApp('worker', { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nowhere' });
    expect(await exited(worker)).toBe(1);
    expect(worker.output().trim()).toMatch(/^startup error: DATABASE_URL: cannot reach PostgreSQL at 127\.0\.0\.1:1 \(ECONNREFUSED\)$/);
  });

  it('names REDIS_URL and the address when Redis is unreachable', async () => {
    const api = startApp('api', { DATABASE_URL: ADMIN_URL, REDIS_URL: 'redis://127.0.0.1:1' });
    expect(await exited(api)).toBe(1);
    expect(api.output().trim()).toMatch(/^startup error: REDIS_URL: cannot reach Redis at 127\.0\.0\.1:1 \(ECONNREFUSED\)$/);
  });

  describe('npm start (the standalone process)', () => {
    let db: TestDatabase;
    beforeAll(async () => {
      db = await createTestDatabase({ migrate: false });
    });
    afterAll(async () => {
      await db?.drop();
    });

    it('prints a short start and the banner last: URL, docs, demo key, one curl, how to stop; logs are JSON off a terminal', async () => {
      const port = String(await freePort());
      const app = startApp('standalone', { DATABASE_URL: db.url, REDIS_PREFIX: testRedisPrefix(), PORT: port, HOST: '127.0.0.1', LOG_LEVEL: 'info' });
      // Seeding (90 days of answers, the closed loop replayed over them) takes a while on a loaded machine.
      await until(() => app.output().includes('stop:'), 180_000, 'the banner');
      await new Promise((r) => setTimeout(r, 500)); // anything printed after the banner would show now
      const lines = app.output().trimEnd().split('\n');
      const banner = lines.findIndex((l) => l.startsWith('AI visibility service: '));
      expect(banner).toBeGreaterThanOrEqual(0);
      expect(lines.slice(0, banner).filter((l) => l.trim()).length).toBeLessThanOrEqual(5);
      const tail = lines.slice(banner).join('\n');
      expect(tail).toContain(`http://127.0.0.1:${port}/docs`);
      expect(tail).toMatch(new RegExp(`dashboard: +http://127\\.0\\.0\\.1:${port}/app `));
      expect(tail).toMatch(/closed loop: +#\d+ resolved, #\d+ regressed, #\d+ verifying/);
      const key = /demo API key: +(ak_live_[0-9A-Za-z]+)/.exec(tail)?.[1];
      expect(key).toBeDefined();
      expect(tail).toContain(`curl -s -H 'X-API-Key: ${key}'`);
      expect(lines[lines.length - 1]).toMatch(/stop: +Ctrl\+C/);
      // The key and the curl work; a request is logged as one JSON line (stdout is not a terminal).
      const r = await fetch(`http://127.0.0.1:${port}/api/v1/opportunities?severity=high,critical&limit=5`, { headers: { 'x-api-key': key! } });
      expect(r.status).toBe(200);
      // The dashboard's page is there, with its script.
      const page = await fetch(`http://127.0.0.1:${port}/app`);
      expect(page.status).toBe(200);
      expect(await page.text()).toMatch(/<script type="module" src="\/app\/assets\/app-[^"]+\.js"><\/script>/);
      // The demo's history shows the closed loop: detectors opened drops, one fix verified and resolved
      // with its outcome in money, one regressed, one waiting for answers after its fix.
      const loop = await fetch(`http://127.0.0.1:${port}/api/v1/opportunities?type=dropped_from_top3&status=resolved,regressed,verifying&includeTerminal=true&limit=100`, { headers: { 'x-api-key': key! } });
      expect(loop.status).toBe(200);
      const found = ((await loop.json()) as { data: { status: string; source: string; outcome: { revenue: number | null; mentionRateBefore: number; mentionRateAfter: number } | null; verification: { status: string } }[] }).data;
      const byDetector = found.filter((o) => o.source === 'detector:dropped_from_top3');
      const resolved = byDetector.find((o) => o.status === 'resolved');
      expect(resolved).toMatchObject({ verification: { status: 'passed' }, outcome: { revenue: expect.any(Number) } });
      expect(resolved!.outcome!.mentionRateAfter).toBeGreaterThan(resolved!.outcome!.mentionRateBefore);
      expect(byDetector.find((o) => o.status === 'regressed')).toMatchObject({ verification: { status: 'failed' } });
      expect(byDetector.find((o) => o.status === 'verifying')).toBeDefined();
      await fetch(`http://127.0.0.1:${port}/api/v1/brands`, { headers: { 'x-api-key': 'wrong' } });
      await until(() => app.output().includes('"statusCode":401'), 5000, 'the request log line');
      const logged = app.output().split('\n').find((l) => l.includes('"statusCode":401'))!;
      expect(JSON.parse(logged)).toMatchObject({ level: 40, msg: 'request completed' });
      app.kill('SIGTERM');
      expect(await exited(app)).toBe(0);
    }, 300_000);
  });

  describe('a running API', () => {
    let db: TestDatabase;
    beforeAll(async () => {
      db = await createTestDatabase();
    });
    afterAll(async () => {
      await db?.drop();
    });

    it('serves /health, /ready and /metrics, tags requests with an id, and stops cleanly on SIGTERM', async () => {
      const port = String(await freePort());
      const api = startApp('api', { DATABASE_URL: db.url, REDIS_PREFIX: testRedisPrefix(), PORT: port, HOST: '127.0.0.1', LOG_LEVEL: 'info' });
      const base = `http://127.0.0.1:${port}`;
      // Start-up compiles the TypeScript as it loads: under a full suite on 2 cores it has taken over 30 s. A process that exited says why.
      await until(
        async () => {
          if (api.exitCode !== null) throw new Error(`the API exited with ${api.exitCode} before listening:\n${api.output()}`);
          return (await fetch(`${base}/health`).catch(() => null))?.ok === true;
        },
        90_000,
        'the API to listen',
      );
      const ready = await fetch(`${base}/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ status: 'ok', info: { database: { status: 'up' }, redis: { status: 'up' }, eventStore: { status: 'up', kind: 'postgres' } } });
      const tagged = await fetch(`${base}/ready`, { headers: { 'x-request-id': 'trace-123' } });
      expect(tagged.headers.get('x-request-id')).toBe('trace-123');
      expect((await fetch(`${base}/ready`)).headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      const metrics = await (await fetch(`${base}/metrics`)).text();
      expect(metrics).toMatch(/http_request_duration_seconds_bucket\{.*route="\/ready".*\}/);
      expect(metrics).toMatch(/process_cpu_seconds_total/);
      // One JSON log line per request, with its id.
      await until(() => api.output().includes('"trace-123"'), 5000, 'the request log line');
      const line = api.output().split('\n').find((l) => l.includes('"trace-123"'))!;
      expect(JSON.parse(line)).toMatchObject({ req: { id: 'trace-123' }, res: { statusCode: 200 } });
      api.kill('SIGTERM');
      expect(await exited(api)).toBe(0);
    }, 150_000);
  });
});
