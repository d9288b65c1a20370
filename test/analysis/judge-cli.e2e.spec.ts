import { cli } from '../support/cli';
import { createTestDatabase, testRedisPrefix, type TestDatabase } from '../support/test-database';

// Every case starts CLI processes (a few seconds each on a loaded 2-core machine).
jest.setTimeout(180_000);

/** `judge set|show` and `answers judge` as processes over a real database and Redis. */
let db: TestDatabase;
let env: Record<string, string>;

beforeAll(async () => {
  db = await createTestDatabase();
  env = { DATABASE_URL: db.url, REDIS_PREFIX: testRedisPrefix() };
});
afterAll(() => db?.drop());

const json = async (args: string[], extra: Record<string, string> = {}) => {
  const r = await cli(['--json', ...args], { ...env, ...extra });
  expect(r).toMatchObject({ code: 0, stderr: '' });
  return JSON.parse(r.stdout);
};

it('judge set turns an organisation’s judge on and off, judge show reads it; bad input is a usage error', async () => {
  const org = await json(['org', 'create', '--name', 'Judge Co']);
  expect(await json(['judge', 'show', '--org', String(org.id)])).toEqual({ organizationId: org.id, provider: 'off', model: null, updatedAt: null });
  expect(await json(['judge', 'set', '--org', String(org.id), '--provider', 'anthropic', '--model', 'claude-haiku-4-5'])).toMatchObject({ organizationId: org.id, provider: 'anthropic', model: 'claude-haiku-4-5' });
  expect(await json(['judge', 'show', '--org', String(org.id)])).toMatchObject({ provider: 'anthropic', model: 'claude-haiku-4-5', updatedAt: expect.any(String) });
  expect(await json(['judge', 'set', '--org', String(org.id), '--provider', 'off'])).toMatchObject({ provider: 'off', model: null });
  for (const args of [
    ['judge', 'set', '--org', String(org.id), '--provider', 'bing'],
    ['judge', 'set', '--org', '999999', '--provider', 'openai'],
    ['judge', 'set', '--org', String(org.id), '--provider', 'off', '--model', 'x'],
  ]) {
    const r = await cli(args, env);
    expect(r).toMatchObject({ code: 2, stdout: '' });
  }
});

it('answers judge refuses while the judge is off, and with it on reports the brand’s answers (none here)', async () => {
  const org = await json(['org', 'create', '--name', 'Backfill Co']);
  const brand = await json(['brand', 'create', '--org', String(org.id), '--name', 'Zeta', '--domain', 'zeta.example']);
  const off = await cli(['answers', 'judge', '--brand', String(brand.id), '--since', '2026-01-01'], env);
  expect(off.code).toBe(2);
  expect(off.stderr).toContain('sentiment judge is off');
  await json(['judge', 'set', '--org', String(org.id), '--provider', 'openai']);
  const judge = { SENTIMENT_JUDGE: 'openai', SENTIMENT_JUDGE_API_KEY: 'sk-test', SENTIMENT_JUDGE_MODEL: 'gpt-judge' };
  expect(await json(['answers', 'judge', '--brand', String(brand.id), '--since', '2026-01-01'], judge)).toEqual({
    brandId: brand.id,
    since: '2026-01-01',
    labeller: 'judge:openai/gpt-judge',
    answers: 0,
    enqueued: 0,
    outcomes: {},
    pending: 0,
  });
  const bad = await cli(['answers', 'judge', '--brand', String(brand.id), '--since', 'yesterday'], { ...env, ...judge });
  expect(bad).toMatchObject({ code: 2, stdout: '' });
});
