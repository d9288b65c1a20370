import type { AddressInfo } from 'node:net';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApiApp } from '../../apps/api/src/create-api-app';
import { loadServiceConfig } from '../../apps/composition/config';
import { WorkerPartModule } from '../../apps/worker/src/worker.module';
import { seedDemo, type DemoSeed } from '../../apps/cli/src/seed/seed-demo';
import { EVENT_STORE, comparePositions, type EventStore, type FeedPosition } from '@libs/event-store';
import { ProjectionRunnerService } from '@libs/projection-engine';
import { createTestDatabase, testRedisPrefix, type TestDatabase } from './test-database';
import { until } from './until';

export interface DemoServer {
  /** http://127.0.0.1:<port> */
  base: string;
  seeded: DemoSeed;
  app: NestFastifyApplication;
  db: TestDatabase;
  /** GET or POST on the API with a key, parsed. */
  api<T = any>(path: string, key: string, init?: { method?: string; body?: unknown }): Promise<{ status: number; body: T }>; // eslint-disable-line @typescript-eslint/no-explicit-any
  close(): Promise<void>;
}

/**
 * Waits until the demo holds still, so a figure read in the browser and the same figure read from
 * the API agree: the worker's scheduler asks today's questions as soon as it starts (the seeded
 * history ends yesterday), the detectors then judge the answers; done when each brand's run of
 * today has ended and no event has been appended for 2 s with every projector past the last one.
 */
async function settle(app: NestFastifyApplication, base: string, seeded: DemoSeed): Promise<void> {
  const today = new Date().toISOString().slice(0, 10);
  const key = seeded.keys[0].key;
  await until(
    async () => {
      for (const brand of seeded.brands) {
        const res = await fetch(`${base}/api/v1/analysis-runs?brandId=${brand.id}&limit=1&sort=createdAt&order=desc`, { headers: { 'x-api-key': key } });
        const run = ((await res.json()) as { data: { createdAt: string; status: string }[] }).data[0];
        if (!run || run.createdAt.slice(0, 10) !== today || run.status === 'queued' || run.status === 'running') return false;
      }
      return true;
    },
    240_000,
    "today's scheduled analysis runs of the demo brands",
  );
  const store = app.get<EventStore>(EVENT_STORE);
  const projections = app.get(ProjectionRunnerService);
  let head: FeedPosition | null = null;
  let since = Date.now();
  await until(
    async () => {
      const now = await store.newestPosition();
      if (!head || comparePositions(now, head) !== 0) {
        head = now;
        since = Date.now();
        return false;
      }
      return Date.now() - since >= 2000 && (await projections.waitFor(now, 1000));
    },
    240_000,
    'the demo to hold still (no new events, every projector caught up)',
  );
}

/**
 * What `npm start` gives a newcomer, for the browser specs and the dashboard benchmark: a fresh
 * database with the demo seeded (the closed loop needs its 90 days of history), then the API with
 * the worker in one process, listening on a free port of 127.0.0.1, once it holds still.
 */
export async function startDemoServer(options: { opportunities?: number; env?: Record<string, string> } = {}): Promise<DemoServer> {
  const db = await createTestDatabase();
  const config = loadServiceConfig({ ...process.env, LOG_LEVEL: 'silent', DATABASE_URL: db.url, REDIS_PREFIX: testRedisPrefix(), PROJECTION_POLL_MS: '100', ...options.env });
  const seeded = await seedDemo(config, { opportunities: options.opportunities });
  const app = await createApiApp(config, [WorkerPartModule.forRoot()]);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.getHttpServer().address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  await settle(app, base, seeded);
  return {
    base,
    seeded,
    app,
    db,
    async api(path, key, init = {}) {
      const res = await fetch(`${base}/api/v1${path}`, {
        method: init.method ?? 'GET',
        headers: { 'x-api-key': key, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    },
    async close() {
      await app.close();
      await db.drop();
    },
  };
}
