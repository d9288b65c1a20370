import type { AddressInfo } from 'node:net';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApiApp } from '../../apps/api/src/create-api-app';
import { loadServiceConfig } from '../../apps/composition/config';
import { WorkerPartModule } from '../../apps/worker/src/worker.module';
import { seedDemo, type DemoSeed } from '../../apps/cli/src/seed/seed-demo';
import { createTestDatabase, testRedisPrefix, type TestDatabase } from './test-database';

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
 * What `npm start` gives a newcomer, for the browser specs and the dashboard benchmark: a fresh
 * database with the demo seeded (the closed loop needs its 90 days of history), then the API with
 * the worker in one process, listening on a free port of 127.0.0.1.
 */
export async function startDemoServer(options: { opportunities?: number; env?: Record<string, string> } = {}): Promise<DemoServer> {
  const db = await createTestDatabase();
  const config = loadServiceConfig({ ...process.env, LOG_LEVEL: 'silent', DATABASE_URL: db.url, REDIS_PREFIX: testRedisPrefix(), PROJECTION_POLL_MS: '100', ...options.env });
  const seeded = await seedDemo(config, { opportunities: options.opportunities });
  const app = await createApiApp(config, [WorkerPartModule.forRoot()]);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.getHttpServer().address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
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
