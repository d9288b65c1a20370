import { performance } from 'node:perf_hooks';
import type { Worker } from 'node:worker_threads';
import { addDays, utcDay } from '@libs/metrics';
import { IngestLane } from '../../libs/agent-analytics/src/ingest-visits/ingest-lane';
import { startTestApi } from '../support/test-api';

/**
 * The API takes ingested batches on a thread of its own (AGENT_INGEST_THREAD, on by default): the
 * thread that serves the other requests stays idle while a batch is parsed, checked and stored; a
 * thread that stops mid-batch stores nothing of it, answers 503, and the next batch starts another.
 */
const D1 = addDays(utcDay(Date.now()), -1);
const GPT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';
const batch = (tag: string, n = 10_000) =>
  JSON.stringify(Array.from({ length: n }, (_, i) => ({ timestamp: `${D1}T${String(i % 24).padStart(2, '0')}:00:00Z`, method: 'GET', host: 'www.acme.example', path: `/${tag}/${i % 300}`, status: 200, ip: `20.171.206.${i % 250}`, userAgent: GPT })));

async function site(env: Record<string, string>) {
  const api = await startTestApi({ AGENT_DNS_SERVERS: 'off', AGENT_ROBOTS_URL_TEMPLATE: 'off', ...env });
  const org = await api.organization();
  await api.tenancy.createBrand({ organizationId: org.id, name: 'Acme', domain: 'acme.example', competitors: [] });
  const stored = async (tag: string): Promise<number> =>
    (await api.dataSource.query(`SELECT count(*)::int AS n FROM bot_visits WHERE organization_id = $1 AND path LIKE $2`, [org.id, `/${tag}/%`]))[0].n;
  const ingest = (body: string) => api.request({ method: 'POST', url: '/api/v1/agent-analytics/ingest', key: org.key, body, headers: { 'content-type': 'application/json' } });
  /** The share of the wall clock this (the request-serving) thread's event loop was busy while the batch was taken. */
  const busyWhile = async (body: string) => {
    const before = performance.eventLoopUtilization();
    const res = await ingest(body);
    return { res, busy: performance.eventLoopUtilization(before).utilization };
  };
  return { api, org, stored, ingest, busyWhile };
}

describe('the ingestion thread', () => {
  let on: Awaited<ReturnType<typeof site>>;
  let off: Awaited<ReturnType<typeof site>>;

  beforeAll(async () => {
    on = await site({});
    off = await site({ AGENT_INGEST_THREAD: 'off' });
  }, 120_000);
  afterAll(async () => {
    await on?.api.close();
    await off?.api.close();
  });

  it("takes a batch off the request thread: that thread's event loop is mostly idle meanwhile, and busy without the thread", async () => {
    // The first batch starts the thread (its application context and connections); the second is measured.
    expect((await on.ingest(batch('warm', 10))).status).toBe(202);
    const measured = await on.busyWhile(batch('on'));
    expect(measured.res.status).toBe(202);
    expect(measured.res.body.data).toMatchObject({ accepted: 10_000, botVisits: 10_000 });
    expect(await on.stored('on')).toBe(10_000);

    const same = await off.busyWhile(batch('off'));
    expect(same.res.status).toBe(202);
    expect(await off.stored('off')).toBe(10_000);
    // With the thread, this thread only received the body and handed it over; without it, it parsed,
    // checked, classified and encoded 10,000 entries itself.
    expect(measured.busy).toBeLessThan(0.5);
    expect(same.busy).toBeGreaterThan(measured.busy);
  }, 120_000);

  it("answers the thread's refusals as the route's own: 400 naming the entry, nothing stored", async () => {
    const entries = JSON.parse(batch('bad', 3)) as Record<string, unknown>[];
    entries[2].status = 'teapot';
    const res = await on.ingest(JSON.stringify(entries));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(res.body.error.details)).toContain('[2]');
    expect(await on.stored('bad')).toBe(0);
  });

  it('a thread that stops in the middle of a batch stores nothing of it and answers 503; the next batch starts another thread', async () => {
    const lane = on.api.app.get(IngestLane) as unknown as { thread: { worker: Worker; waiting: Map<number, unknown> } | null };
    expect(lane.thread).not.toBeNull();
    const pending = on.ingest(batch('cut'));
    // The batch has reached the thread: stop it there (as a fatal error in it would).
    const deadline = Date.now() + 10_000;
    while (!(lane.thread && lane.thread.waiting.size > 0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 1));
    const stopped = lane.thread!.worker;
    await stopped.terminate();
    const res = await pending;
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(await on.stored('cut')).toBe(0);

    const again = await on.ingest(batch('cut'));
    expect(again.status).toBe(202);
    expect(lane.thread!.worker).not.toBe(stopped);
    expect(await on.stored('cut')).toBe(10_000);
  }, 120_000);
});
