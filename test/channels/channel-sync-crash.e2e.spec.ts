import { randomBytes } from 'node:crypto';
import { ApiKeysRepository } from '@libs/auth';
import { createDataSource } from '@libs/database';
import { addDays, utcDay } from '@libs/metrics';
import { TenancyRepository } from '@libs/tenancy';
import type { DataSource } from 'typeorm';
import { newServiceAccount, startFakeGoogle, type FakeGoogle } from '../support/fake-google';
import { exited, freePort, listening, startApp, until } from '../support/processes';
import { createTestDatabase, testRedisPrefix, type TestDatabase } from '../support/test-database';

/**
 * A worker SIGKILLed in the middle of a GA4 backfill: the windows it wrote stay (cursor after the
 * last of them), a new worker picks the stalled job up and resumes after the cursor, never asking
 * again for a window already written; the sync ends succeeded with every day once.
 */
let db: TestDatabase;
let google: FakeGoogle;
let ds: DataSource;

beforeAll(async () => {
  db = await createTestDatabase();
  google = await startFakeGoogle();
  ds = await createDataSource(db.url, 2).initialize();
});
afterAll(async () => {
  await ds?.destroy();
  await google?.close();
  await db?.drop();
});

it('a sync resumes after its worker is killed, from the cursor', async () => {
  const account = newServiceAccount();
  google.register(account);
  google.setLatency(300);
  const tenancy = new TenancyRepository(ds);
  const org = await tenancy.createOrganization('Crash', 'enterprise');
  const client = await tenancy.createClient(org.id, 'C');
  const { key } = await new ApiKeysRepository(ds).create({ organizationId: org.id, scopes: ['read:metrics', 'write:metrics'], tier: 'enterprise' });
  const port = String(await freePort());
  const env = {
    DATABASE_URL: db.url,
    REDIS_PREFIX: testRedisPrefix(),
    PORT: port,
    HOST: '127.0.0.1',
    CHANNEL_CREDENTIALS_KEY: randomBytes(32).toString('base64'),
    GA4_DATA_API_URL: google.url,
    GOOGLE_TOKEN_URL: google.tokenUrl,
    CHANNEL_SYNC_CHUNK_DAYS: '2',
    CHANNEL_SYNC_REFRESH_DAYS: '0',
    CHANNEL_SYNC_POLL_MS: '86400000',
    ANALYSIS_SCHEDULER_POLL_MS: '86400000',
  };
  const api = startApp('api', env);
  let worker = startApp('worker', env);
  try {
    const base = `http://127.0.0.1:${port}`;
    await listening(api, base);
    const headers = { 'x-api-key': key, 'content-type': 'application/json' };
    const created = await fetch(`${base}/api/v1/channels`, { method: 'POST', headers, body: JSON.stringify({ clientId: client.id, kind: 'ga4', name: 'GA4', propertyId: '9', credentials: account, backfillDays: 10 }) });
    const id = ((await created.json()) as { data: { id: number } }).data.id;
    const cursor = async () => ((await ds.query(`SELECT to_char(cursor_date, 'YYYY-MM-DD') AS c FROM channels WHERE id = $1`, [id])) as { c: string | null }[])[0].c;
    expect((await fetch(`${base}/api/v1/channels/${id}/sync`, { method: 'POST', headers: { 'x-api-key': key } })).status).toBe(202);
    await until(async () => (await cursor()) !== null, 60_000, 'the first window written');
    worker.kill('SIGKILL');
    await exited(worker);
    const atCrash = (await cursor())!;
    const today = utcDay(Date.now());
    expect(atCrash < addDays(today, -1)).toBe(true);
    const before = google.requests.length;
    worker = startApp('worker', env);
    await until(async () => ((await ds.query(`SELECT status FROM channel_syncs WHERE channel_id = $1`, [id])) as { status: string }[])[0].status === 'succeeded', 90_000, 'the sync resumed and done');
    expect(await cursor()).toBe(addDays(today, -1));
    const resumed = google.requests.slice(before).filter((r) => r.api === 'ga4');
    expect(resumed.length).toBeGreaterThan(0);
    for (const r of resumed) expect((r.body.dateRanges as { startDate: string }[])[0].startDate > atCrash).toBe(true);
    const days: { day: string; n: number }[] = await ds.query(`SELECT to_char(day, 'YYYY-MM-DD') AS day, count(*)::int AS n FROM channel_metrics_daily WHERE channel_id = $1 GROUP BY 1 ORDER BY 1`, [id]);
    expect(days).toEqual(Array.from({ length: 10 }, (_, i) => ({ day: addDays(today, -10 + i), n: 1 })));
  } finally {
    api.kill('SIGTERM');
    worker.kill('SIGTERM');
    await Promise.all([exited(api), exited(worker)]);
  }
}, 300_000);
