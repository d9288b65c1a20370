import type { AddressInfo } from 'node:net';
import express from 'express';
import { addDays, utcDay } from '@libs/metrics';
import { expressAgentAnalytics } from '../../packages/agent-analytics-middleware/src';
import { startTestApi, type TestApi } from '../support/test-api';

/**
 * The middleware package against the real service over HTTP: an Express site reports a GPTBot
 * visit and an AI referral, and the service's figures show them; two identical batches sent at
 * once under one Idempotency-Key are stored once.
 */
let api: TestApi;
let org: { id: number; key: string };
let base: string;
const GPT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';

beforeAll(async () => {
  api = await startTestApi({ AGENT_DNS_SERVERS: 'off', AGENT_ROBOTS_URL_TEMPLATE: 'off' });
  await api.app.listen(0, '127.0.0.1');
  base = `http://127.0.0.1:${(api.app.getHttpServer().address() as AddressInfo).port}`;
  org = await api.organization();
  await api.tenancy.createBrand({ organizationId: org.id, name: 'Acme', domain: 'acme.example', competitors: [] });
});
afterAll(async () => {
  await api?.close();
});

it('an Express site with the middleware feeds the service', async () => {
  const analytics = expressAgentAnalytics({ endpoint: `${base}/api/v1/agent-analytics/ingest`, apiKey: org.key, flushIntervalMs: 60_000 });
  const site = express();
  site.use(analytics);
  site.get('*splat', (_req, res) => res.send('page'));
  const server = site.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    await fetch(`${url}/pricing`, { headers: { 'user-agent': GPT } });
    await fetch(`${url}/blog`, { headers: { 'user-agent': 'Mozilla/5.0 Chrome/131', referer: 'https://chatgpt.com/' } });
    await fetch(`${url}/about`, { headers: { 'user-agent': 'Mozilla/5.0 Chrome/131' } });
    await analytics.batcher.close();
    expect(analytics.batcher.stats).toMatchObject({ sent: 2, dropped: 0, failedSends: 0 });
    const overview = (await api.request({ url: '/api/v1/agent-analytics/overview?days=1', key: org.key })).body.data;
    expect(overview).toMatchObject({ visits: 1, unverifiableVisits: 0, spoofedVisits: 1, aiReferralVisits: 1, pagesCrawled: 1 });
    const [visit] = (await api.request({ url: '/api/v1/agent-analytics/bot-visits', key: org.key })).body.data;
    // The site's own Host header (fetch sends the address); 127.0.0.1 is not in OpenAI's ranges: spoofed.
    expect(visit).toMatchObject({ botName: 'GPTBot', host: '127.0.0.1', path: '/pricing', status: 200, ip: '127.0.0.1', verification: 'spoofed' });
  } finally {
    await new Promise((r) => server.close(r));
  }
});

it('two identical batches sent at once under one Idempotency-Key are stored once', async () => {
  const day = addDays(utcDay(Date.now()), -1);
  const batch = Array.from({ length: 50 }, (_, i) => ({ timestamp: `${day}T09:00:00Z`, method: 'GET', host: 'acme.example', path: `/race/${i}`, status: 200, ip: '20.171.206.40', userAgent: GPT }));
  const send = () => fetch(`${base}/api/v1/agent-analytics/ingest`, { method: 'POST', headers: { 'x-api-key': org.key, 'content-type': 'application/json', 'idempotency-key': 'race-1' }, body: JSON.stringify(batch) });
  const [a, b] = await Promise.all([send(), send()]);
  expect([a.status, b.status]).toEqual([202, 202]);
  expect([a.headers.get('idempotent-replayed'), b.headers.get('idempotent-replayed')].filter(Boolean)).toEqual(['true']);
  expect((await api.request({ url: '/api/v1/agent-analytics/visits?url=/race/*', key: org.key })).body.meta.total).toBe(50);
});
