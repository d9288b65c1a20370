import { randomBytes } from 'node:crypto';
import { ApiKeysRepository } from '@libs/auth';
import { createDataSource } from '@libs/database';
import { TenancyRepository } from '@libs/tenancy';
import type { DataSource } from 'typeorm';
import { newServiceAccount, startFakeGoogle, type FakeGoogle } from '../support/fake-google';
import { exited, freePort, listening, startApp, until } from '../support/processes';
import { createTestDatabase, testRedisPrefix, type TestDatabase } from '../support/test-database';

/**
 * Credentials never reach a log line: the API and the worker as real processes logging at debug,
 * a ga4 channel created with a service-account key, a sync that meets a quota error and then a
 * refusal (both logged), a sync that succeeds; neither process's output holds the key, its sealed
 * form or the account's e-mail.
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

it('no log line of the API or the worker carries channel credentials', async () => {
  const account = newServiceAccount();
  google.register(account);
  const org = await new TenancyRepository(ds).createOrganization('Logs', 'enterprise');
  const client = await new TenancyRepository(ds).createClient(org.id, 'C');
  const { key } = await new ApiKeysRepository(ds).create({ organizationId: org.id, scopes: ['read:metrics', 'write:metrics'], tier: 'enterprise' });
  const port = String(await freePort());
  const env = {
    DATABASE_URL: db.url,
    REDIS_PREFIX: testRedisPrefix(),
    PORT: port,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'debug',
    LOG_FORMAT: 'json',
    CHANNEL_CREDENTIALS_KEY: randomBytes(32).toString('base64'),
    GA4_DATA_API_URL: google.url,
    GOOGLE_TOKEN_URL: google.tokenUrl,
    CHANNEL_SYNC_BACKOFF_MS: '10',
    CHANNEL_SYNC_POLL_MS: '86400000',
    ANALYSIS_SCHEDULER_POLL_MS: '86400000',
  };
  const apiProcess = startApp('api', env);
  const worker = startApp('worker', env);
  const base = `http://127.0.0.1:${port}`;
  await listening(apiProcess, base);
  // The worker's channel scheduler passes once at start: a channel created before that pass would get a
  // scheduled sync that takes the scripted answers below. Create it only after that pass (logged at debug).
  await until(() => worker.output().includes('scheduling pass done'), 60_000, "the worker's first scheduling pass");
  const headers = { 'x-api-key': key, 'content-type': 'application/json' };
  const created = await fetch(`${base}/api/v1/channels`, { method: 'POST', headers, body: JSON.stringify({ clientId: client.id, kind: 'ga4', name: 'GA4', propertyId: '42', credentials: account, backfillDays: 2 }) });
  expect(created.status).toBe(201);
  const id = ((await created.json()) as { data: { id: number } }).data.id;
  const syncOnce = async () => {
    const queued = await fetch(`${base}/api/v1/channels/${id}/sync`, { method: 'POST', headers: { 'x-api-key': key } });
    expect(queued.status).toBe(202);
    const syncId = ((await queued.json()) as { data: { id: number } }).data.id;
    let status = 'queued';
    await until(
      async () => {
        const list = (await (await fetch(`${base}/api/v1/channels/${id}/syncs`, { headers: { 'x-api-key': key } })).json()) as { data: { id: number; status: string }[] };
        status = list.data.find((s) => s.id === syncId)?.status ?? 'queued';
        return status === 'succeeded' || status === 'failed';
      },
      60_000,
      'the sync',
    );
    return status;
  };
  google.script({ status: 429 }, { status: 403, reason: 'forbidden' });
  expect(await syncOnce()).toBe('failed');
  expect(await syncOnce()).toBe('succeeded');
  await until(() => worker.output().includes('retry 1'), 5000, 'the retry logged');
  const output = apiProcess.output() + worker.output();
  expect(output).toContain('"statusCode":201');
  for (const secret of [account.private_key.split('\n')[1], account.private_key_id, account.client_email, 'chc:v1:']) expect(output).not.toContain(secret);
  apiProcess.kill('SIGTERM');
  worker.kill('SIGTERM');
  await Promise.all([exited(apiProcess), exited(worker)]);
});
