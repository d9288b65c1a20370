import { generateApiKey } from '@libs/auth';
import { Redis } from 'ioredis';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApiApp } from '../../apps/api/src/create-api-app';
import { startTestApi, type TestApi } from '../support/test-api';

/**
 * Rate limits per credential (token bucket per minute + UTC-day quota, one Redis script shared by
 * every process) and failed-authentication limits per client address.
 */
let api: TestApi;
let redis: Redis;
beforeAll(async () => {
  // The standard tier gets a tiny daily quota so the day limit can be reached in a test.
  api = await startTestApi({ RATE_LIMIT_TIERS: '{"standard":{"perDay":5}}' });
  redis = new Redis(api.config.redisUrl, { keyPrefix: `${api.config.redisPrefix}:` });
});
afterAll(async () => {
  redis?.disconnect();
  await api?.close();
});

const validate = (key: string, app: TestApi | NestFastifyApplication = api) =>
  'request' in app
    ? app.request({ method: 'POST', url: '/api/v1/validate-key', key })
    : app.inject({ method: 'POST', url: '/api/v1/validate-key', headers: { 'x-api-key': key } }).then((r) => ({ status: r.statusCode, headers: r.headers, body: r.json() }));

const garbage = (address: string, app?: NestFastifyApplication) =>
  app
    ? app.inject({ method: 'POST', url: '/api/v1/validate-key', headers: { 'x-api-key': 'ak_live_nope', 'x-forwarded-for': address } }).then((r) => ({ status: r.statusCode, headers: r.headers, body: r.json() }))
    : api.request({ method: 'POST', url: '/api/v1/validate-key', key: 'ak_live_nope', headers: { 'x-forwarded-for': address } });

const today = () => new Date().toISOString().slice(0, 10);

describe('rate limits per credential', () => {
  it('gives a free key exactly 70 quick requests (60 + burst 10), then 429 with Retry-After and the headers', async () => {
    const org = await api.organization({ tier: 'free' });
    const started = Date.now();
    const first = await validate(org.key);
    expect(first.status).toBe(200);
    expect(first.headers).toMatchObject({
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': '69',
      'x-ratelimit-reset': '1',
      'ratelimit-policy': '"minute";q=70;w=60, "day";q=1000;w=86400',
      ratelimit: '"minute";r=69;t=1',
    });
    const rest = await Promise.all(Array.from({ length: 74 }, () => validate(org.key)));
    // The bucket refills a token a second (60 a minute): a burst slower than a second on a loaded machine earns one more.
    const refilled = Math.floor((Date.now() - started) / 1000);
    const statuses = [first, ...rest].map((r) => r.status);
    const accepted = statuses.filter((s) => s === 200).length;
    expect(accepted).toBeGreaterThanOrEqual(70);
    expect(accepted).toBeLessThanOrEqual(70 + refilled);
    expect(statuses.filter((s) => s === 429)).toHaveLength(75 - accepted);

    const refused = rest.find((r) => r.status === 429)!;
    expect(refused.body).toEqual({ error: { code: 'RATE_LIMITED', message: expect.any(String), details: { limit: 'minute', retryAfterSeconds: expect.any(Number) } } });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(1);
    expect(refused.headers['x-ratelimit-limit']).toBe('60');
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(refused.headers['x-ratelimit-reset'])).toBeGreaterThanOrEqual(69);
    expect(Number(refused.headers['x-ratelimit-reset'])).toBeLessThanOrEqual(70);

    // Another key of the same tier is unaffected.
    const other = await api.organization({ tier: 'free' });
    expect((await validate(other.key)).status).toBe(200);

    // A rejected request spends nothing: the day counter saw the 70 accepted requests only.
    expect(await redis.get(`rl:{key:${org.keyId}}:d:${today()}`)).toBe(String(accepted));
  });

  it('enforces the daily quota, and a request refused by it spends no minute tokens', async () => {
    const org = await api.organization({ tier: 'standard' });
    const started = Date.now();
    for (let i = 0; i < 5; i++) expect((await validate(org.key)).status).toBe(200);
    const last = await api.request({ method: 'POST', url: '/api/v1/validate-key', key: org.key });
    expect(last.status).toBe(429);
    expect(last.body.error.details.limit).toBe('day');
    const untilMidnight = Math.ceil((86_400_000 - (Date.now() % 86_400_000)) / 1000);
    expect(Math.abs(Number(last.headers['retry-after']) - untilMidnight)).toBeLessThanOrEqual(2);
    expect(last.headers['x-ratelimit-remaining']).toBe('0');
    expect(last.headers['x-ratelimit-limit']).toBe('300');
    expect(last.headers.ratelimit).toMatch(/^"day";r=0;t=\d+$/);
    for (let i = 0; i < 10; i++) expect((await validate(org.key)).status).toBe(429);
    // 350 tokens, 5 spent; the 11 refusals took none. The bucket refills 5 a second (300 a minute), so a slow run may see those back.
    const tokens = Math.floor(Number(await redis.hget(`rl:{key:${org.keyId}}:m`, 't')));
    expect(tokens).toBeGreaterThanOrEqual(345);
    expect(tokens).toBeLessThanOrEqual(Math.min(350, 345 + Math.floor(((Date.now() - started) / 1000) * 5)));
    expect(await redis.get(`rl:{key:${org.keyId}}:d:${today()}`)).toBe('5');
  });

  it('sets the headers on 200 and on every later error response (404, 400, 403, malformed JSON, 415), not on 401', async () => {
    const org = await api.organization({ tier: 'free' });
    const ok = await api.request({ url: '/api/v1/brands', key: org.key });
    expect(ok.status).toBe(200);
    expect(ok.headers['x-ratelimit-remaining']).toBe('69');
    const missing = await api.request({ url: '/api/v1/brands/987654321', key: org.key });
    expect(missing.status).toBe(404);
    expect(missing.headers).toMatchObject({ 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '68', 'x-ratelimit-reset': expect.any(String) });
    expect(missing.headers['ratelimit-policy']).toBeDefined();
    expect(missing.headers.ratelimit).toBeDefined();
    const invalid = await api.request({ url: '/api/v1/brands?clientId=abc', key: org.key });
    expect(invalid.status).toBe(400);
    expect(invalid.headers['x-ratelimit-remaining']).toBe('67');

    const anonymous = await api.request({ method: 'POST', url: '/api/v1/validate-key' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['x-ratelimit-limit']).toBeUndefined();

    // Charged as it arrives, before its scope is checked or its body read: a 403 carries the headers too.
    const narrow = await api.keys.create({ organizationId: org.id, scopes: ['read:usage'], tier: 'free' });
    const forbidden = await api.request({ url: '/api/v1/brands', key: narrow.key });
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers['x-ratelimit-remaining']).toBe('69');
    const malformed = await api.request({ method: 'POST', url: '/api/v1/validate-key', key: narrow.key, body: '{bad', headers: { 'content-type': 'application/json' } });
    expect(malformed.status).toBe(400);
    expect(malformed.headers['x-ratelimit-remaining']).toBe('68');
    const text = await api.request({ method: 'POST', url: '/api/v1/validate-key', key: narrow.key, body: 'hello', headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
    expect(text.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(text.headers['x-ratelimit-remaining']).toBe('67');
    const form = await api.request({ method: 'POST', url: '/api/v1/validate-key', key: narrow.key, body: 'a=b', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.status).toBe(415);
    expect(form.headers['x-ratelimit-remaining']).toBe('66');
    const unknownPath = await api.request({ url: '/api/v1/no-such-thing', key: narrow.key });
    expect(unknownPath.status).toBe(404);
    expect(unknownPath.headers['x-ratelimit-remaining']).toBe('65');
    // Without credentials the body is never read: 401, whatever it holds.
    for (const [body, type] of [['{bad', 'application/json'], ['a=b', 'application/x-www-form-urlencoded'], ['hello', 'text/plain']]) {
      const r = await api.request({ method: 'POST', url: '/api/v1/webhooks', body, headers: { 'content-type': type } });
      expect([r.status, r.body.error.code]).toEqual([401, 'UNAUTHORIZED']);
    }
    expect((await api.request({ url: '/api/v1/no-such-thing' })).status).toBe(401);

    // Public operations are not limited.
    const health = await api.request({ url: '/health' });
    expect(health.status).toBe(200);
    expect(health.headers['x-ratelimit-limit']).toBeUndefined();
  });
});

describe('failed authentication per client address', () => {
  it('answers 429 to wrong credentials after 20 failures a minute, while valid keys and tokens from that address still pass', async () => {
    for (let i = 0; i < 20; i++) expect((await garbage('203.0.113.7')).status).toBe(401);
    const limited = await garbage('203.0.113.7');
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // One guesser behind a shared proxy does not lock out everyone else behind it.
    const org = await api.organization();
    const validFromThere = await api.request({ method: 'POST', url: '/api/v1/validate-key', key: org.key, headers: { 'x-forwarded-for': '203.0.113.7' } });
    expect(validFromThere.status).toBe(200);
    // Guessing stays stopped: every further wrong key from there is 429, well formed or not.
    const wellFormedGuess = await api.request({ method: 'POST', url: '/api/v1/validate-key', key: generateApiKey(), headers: { 'x-forwarded-for': '203.0.113.7' } });
    expect(wellFormedGuess.status).toBe(429);
    expect((await garbage('203.0.113.7')).status).toBe(429);
    expect((await garbage('203.0.113.8')).status).toBe(401);
  });
});

describe('two API processes', () => {
  let second: NestFastifyApplication;
  beforeAll(async () => {
    // Same database, same Redis prefix: another replica of the API behind the load balancer.
    second = await createApiApp(api.config);
    await second.init();
    await second.getHttpAdapter().getInstance().ready();
  });
  afterAll(async () => {
    await second?.close();
  });

  it('share one budget: a free key gets 70 requests across both', async () => {
    const org = await api.organization({ tier: 'free' });
    const started = Date.now();
    const results = await Promise.all(Array.from({ length: 80 }, (_, i) => validate(org.key, i % 2 ? api : second)));
    // 70 a minute: one more request is due every 857 ms, so a burst slowed past that on a loaded machine may pass one more.
    const refilled = Math.floor(((Date.now() - started) * 70) / 60_000);
    const passed = results.filter((r) => r.status === 200).length;
    expect(passed).toBeGreaterThanOrEqual(70);
    expect(passed).toBeLessThanOrEqual(70 + refilled);
    expect(results.filter((r) => r.status === 429)).toHaveLength(80 - passed);
    // Each process refused some: neither kept a budget of its own.
    expect(results.filter((r, i) => r.status === 200 && i % 2 === 0).length).toBeLessThan(70);
    expect(results.filter((r, i) => r.status === 200 && i % 2 === 1).length).toBeLessThan(70);
  });

  it('share the failed-authentication count of an address, and a block reaches the other process', async () => {
    for (let i = 0; i < 10; i++) expect((await garbage('198.51.100.9')).status).toBe(401);
    for (let i = 0; i < 10; i++) expect((await garbage('198.51.100.9', second)).status).toBe(401);
    expect((await garbage('198.51.100.9', second)).status).toBe(429);
    await new Promise((r) => setTimeout(r, 100));
    expect((await garbage('198.51.100.9')).status).toBe(429);
  });
});
