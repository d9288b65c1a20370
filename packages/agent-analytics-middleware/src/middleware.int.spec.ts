import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import Fastify from 'fastify';
import { expressAgentAnalytics, fastifyAgentAnalytics, isWorthReporting, VisitBatcher, type Visit } from './index';

/**
 * The middleware against a local ingest server speaking the API's wire format (JSON batches,
 * X-API-Key, Idempotency-Key, 202): batching, filtering, and that a slow, failing or absent
 * service never slows or fails the host's requests.
 */
interface Received {
  key: string | undefined;
  apiKey: string | undefined;
  visits: Visit[];
}

interface Behaviour {
  status?: number;
  delayMs?: number;
  hang?: boolean;
}

async function ingestServer(behaviour: Behaviour = {}): Promise<{ url: string; batches: Received[]; set: (b: Behaviour) => void; close: () => Promise<void> }> {
  const batches: Received[] = [];
  let b = behaviour;
  const server: Server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      // What the service does with a request is decided when it arrives: a hung service never
      // answers nor records it (a batch the client gave up on does not turn up later).
      const now = b;
      if (now.hang) return;
      setTimeout(() => {
        const status = now.status ?? 202;
        if (status === 202) batches.push({ key: req.headers['idempotency-key'] as string, apiKey: req.headers['x-api-key'] as string, visits: JSON.parse(body) });
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ data: {} }));
      }, now.delayMs ?? 0).unref();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/agent-analytics/ingest`,
    batches,
    set: (next) => (b = next),
    close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

async function listen(app: express.Express): Promise<{ base: string; close: () => Promise<void> }> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(() => r())) };
}

const GPT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const until = async (ok: () => boolean, ms = 5000) => {
  for (const end = Date.now() + ms; !ok(); ) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('express middleware', () => {
  it('reports bot visits and AI referrals in batches with the entry fields, skips ordinary visits', async () => {
    const ingest = await ingestServer();
    const mw = expressAgentAnalytics({ endpoint: ingest.url, apiKey: 'ak_test', flushIntervalMs: 50, maxBatch: 3 });
    const app = express();
    app.use(mw);
    app.get('/pricing', (_req, res) => res.send('ok'));
    app.get('/missing', (_req, res) => res.status(404).send('no'));
    const site = await listen(app);
    try {
      await fetch(`${site.base}/pricing?x=1`, { headers: { 'user-agent': GPT, signature: 'sig1=:abc:', 'signature-input': 'sig1=("@authority")' } });
      await fetch(`${site.base}/missing`, { headers: { 'user-agent': GPT } });
      await fetch(`${site.base}/pricing`, { headers: { 'user-agent': CHROME, referer: 'https://chatgpt.com/' } });
      await fetch(`${site.base}/pricing`, { headers: { 'user-agent': CHROME } });
      await until(() => ingest.batches.reduce((n, b) => n + b.visits.length, 0) === 3);
      const visits = ingest.batches.flatMap((b) => b.visits);
      expect(ingest.batches.every((b) => b.apiKey === 'ak_test' && /^[0-9a-f-]{36}$/.test(b.key ?? ''))).toBe(true);
      expect(visits[0]).toMatchObject({ method: 'GET', host: site.base.slice(7), path: '/pricing?x=1', status: 200, ip: '127.0.0.1', userAgent: GPT, referer: null, bytes: 2, headers: { signature: 'sig1=:abc:', 'signature-input': 'sig1=("@authority")' } });
      expect(Date.parse(visits[0].timestamp)).toBeGreaterThan(Date.now() - 10_000);
      expect(visits[1]).toMatchObject({ path: '/missing', status: 404 });
      expect(visits[2]).toMatchObject({ userAgent: CHROME, referer: 'https://chatgpt.com/' });
      // The ingest server records a batch before it answers; the batcher counts it sent once the answer arrives.
      await until(() => mw.batcher.stats.sent === 3);
      expect(mw.batcher.stats).toMatchObject({ sent: 3, dropped: 0 });
    } finally {
      await mw.batcher.close();
      await site.close();
      await ingest.close();
    }
  });

  it('never slows or fails the host while the service hangs, errs or is down, and delivers once it is back', async () => {
    const ingest = await ingestServer({ hang: true });
    const errors: string[] = [];
    const mw = expressAgentAnalytics({ endpoint: ingest.url, apiKey: 'k', flushIntervalMs: 20, maxBatch: 1, timeoutMs: 200, onError: (e) => errors.push(e.message) });
    const app = express();
    app.use(mw);
    app.get('/', (_req, res) => res.send('fine'));
    const site = await listen(app);
    try {
      const timings: number[] = [];
      for (let i = 0; i < 20; i++) {
        const t = Date.now();
        const res = await fetch(`${site.base}/`, { headers: { 'user-agent': GPT } });
        expect(res.status).toBe(200);
        expect(await res.text()).toBe('fine');
        timings.push(Date.now() - t);
      }
      // The service hangs; the host's requests take what they take without it.
      expect(Math.max(...timings)).toBeLessThan(1000);
      await until(() => errors.length > 0);
      ingest.set({ status: 503 });
      await new Promise((r) => setTimeout(r, 300));
      expect(ingest.batches).toHaveLength(0);
      ingest.set({});
      await until(() => ingest.batches.reduce((n, b) => n + b.visits.length, 0) >= 20, 15_000);
      // A retried batch keeps its Idempotency-Key, so the service counts it once.
      expect(new Set(ingest.batches.map((b) => b.key)).size).toBe(ingest.batches.length);
      expect(mw.batcher.stats.failedSends).toBeGreaterThan(0);
    } finally {
      await mw.batcher.close();
      await site.close();
      await ingest.close();
    }
  }, 30_000);

  it('bounds what it keeps while the service is away, and drops batches the service refuses', async () => {
    const batcher = new VisitBatcher({ endpoint: 'http://127.0.0.1:9/ingest', apiKey: 'k', maxQueue: 5, flushIntervalMs: 60_000 });
    for (let i = 0; i < 12; i++) batcher.push({ timestamp: new Date().toISOString(), method: 'GET', host: 'a.example', path: `/${i}`, status: 200, ip: '1.2.3.4', userAgent: GPT });
    expect(batcher.stats).toMatchObject({ dropped: 7, queued: 5 });
    await batcher.close();
    const refusing = await ingestServer({ status: 400 });
    const b2 = new VisitBatcher({ endpoint: refusing.url, apiKey: 'k', flushIntervalMs: 10, onError: () => undefined });
    b2.push({ timestamp: new Date().toISOString(), method: 'GET', host: 'a.example', path: '/', status: 200, ip: '1.2.3.4', userAgent: GPT });
    await b2.flush();
    expect(b2.stats).toMatchObject({ dropped: 1, sent: 0 });
    await refusing.close();
    expect(() => new VisitBatcher({ endpoint: 'ftp://x', apiKey: 'k' })).toThrow(TypeError);
  });

  it('reports what is worth reporting by default', () => {
    const v = (userAgent: string, extra: Partial<Visit> = {}): Visit => ({ timestamp: '', method: 'GET', host: 'a', path: '/', status: 200, ip: '1.1.1.1', userAgent, ...extra });
    expect(isWorthReporting(v(GPT))).toBe(true);
    expect(isWorthReporting(v('Mozilla/5.0 (compatible; ClaudeBot/1.0)'))).toBe(true);
    expect(isWorthReporting(v(CHROME))).toBe(false);
    expect(isWorthReporting(v(CHROME, { referer: 'https://www.perplexity.ai/search' }))).toBe(true);
    expect(isWorthReporting(v(CHROME, { referer: 'https://chatgpt.com.evil.example/' }))).toBe(false);
    expect(isWorthReporting(v(CHROME, { path: '/?utm_source=chatgpt.com' }))).toBe(true);
  });
});

describe('fastify plugin', () => {
  it('reports after the response, and sends the last visits when Fastify closes', async () => {
    const ingest = await ingestServer();
    const app = Fastify();
    await app.register(fastifyAgentAnalytics, { endpoint: ingest.url, apiKey: 'k', flushIntervalMs: 60_000 });
    app.get('/docs/:id', async () => ({ ok: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const res = await fetch(`${base}/docs/1`, { headers: { 'user-agent': GPT } });
    expect(res.status).toBe(200);
    expect(ingest.batches).toHaveLength(0);
    await app.close();
    expect(ingest.batches).toHaveLength(1);
    expect(ingest.batches[0].visits[0]).toMatchObject({ path: '/docs/1', status: 200, userAgent: GPT, ip: '127.0.0.1' });
    await ingest.close();
  });

  it('keeps answering when the service is down', async () => {
    const app = Fastify();
    await app.register(fastifyAgentAnalytics, { endpoint: 'http://127.0.0.1:9/ingest', apiKey: 'k', flushIntervalMs: 10, maxBatch: 1, onError: () => undefined });
    app.get('/', async () => 'up');
    for (let i = 0; i < 10; i++) {
      const res = await app.inject({ method: 'GET', url: '/', headers: { 'user-agent': GPT } });
      expect(res.statusCode).toBe(200);
    }
    await app.close();
  });
});
