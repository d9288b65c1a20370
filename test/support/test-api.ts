import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { ModuleMetadata } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AppConfig } from '@libs/config';
import { createDataSource } from '@libs/database';
import { ApiKeysRepository, type Scope, type Tier } from '@libs/auth';
import { TenancyRepository } from '@libs/tenancy';
import { createApiApp } from '../../apps/api/src/create-api-app';
import { EVENT_STORE, type EventStore } from '@libs/event-store';
import { projectionsReached } from '@libs/projection-engine';
import { createTestDatabase, testRedisPrefix, type TestDatabase } from './test-database';
import { until } from './processes';
import { watchShutdownHooks } from './shutdown-watch';
import { loadServiceConfig } from '../../apps/composition/config';

export interface TestApi {
  app: NestFastifyApplication;
  config: AppConfig;
  db: TestDatabase;
  dataSource: DataSource;
  tenancy: TenancyRepository;
  keys: ApiKeysRepository;
  /** Sends a request through Fastify's inject (no socket). */
  request(opts: { method?: string; url: string; key?: string; bearer?: string; body?: unknown; headers?: Record<string, string> }): Promise<{
    status: number;
    body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
    headers: Record<string, string | string[] | undefined>;
  }>;
  /** An organisation with a key holding `scopes` (default all). */
  organization(opts?: { tier?: Tier; scopes?: Scope[] | 'all' }): Promise<{ id: number; key: string; keyId: number }>;
  /** Resolves once the named projections have applied every event appended so far (fails after 10 s). */
  projected(projections: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * The API in-process against a fresh database and its own Redis prefix. `env` overrides
 * configuration; `extraImports` adds modules (as npm start adds the worker).
 */
export async function startTestApi(env: Record<string, string> = {}, extraImports: ModuleMetadata['imports'] = []): Promise<TestApi> {
  const db = await createTestDatabase();
  const config = loadServiceConfig({ ...process.env, LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', TRUST_PROXY: 'true', DATABASE_URL: db.url, REDIS_PREFIX: testRedisPrefix(), PROJECTION_POLL_MS: '50', ...env });
  const app = await createApiApp(config, extraImports);
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  const dataSource = createDataSource(db.url, 4);
  await dataSource.initialize();
  const tenancy = new TenancyRepository(dataSource);
  const keys = new ApiKeysRepository(dataSource);
  const api: TestApi = {
    app,
    config,
    db,
    dataSource,
    tenancy,
    keys,
    async request({ method = 'GET', url, key, bearer, body, headers = {} }) {
      const h: Record<string, string> = { ...headers };
      if (key) h['x-api-key'] = key;
      if (bearer) h.authorization = `Bearer ${bearer}`;
      const res = await app.inject({ method: method as 'GET', url, headers: h, ...(body === undefined ? {} : typeof body === 'string' ? { payload: body } : { payload: body as object }) });
      let parsed: unknown = res.body;
      try {
        parsed = res.body ? JSON.parse(res.body) : undefined;
      } catch {
        /* not JSON */
      }
      return { status: res.statusCode, body: parsed, headers: res.headers as Record<string, string | string[] | undefined> };
    },
    async organization({ tier = 'enterprise', scopes = 'all' } = {}) {
      const org = await tenancy.createOrganization(`Org ${Math.random().toString(36).slice(2, 8)}`, tier);
      const { ALL_SCOPES } = await import('@libs/auth');
      const created = await keys.create({ organizationId: org.id, scopes: scopes === 'all' ? [...ALL_SCOPES] : scopes, tier });
      return { id: org.id, key: created.key, keyId: created.id };
    },
    async projected(projections) {
      // The newest committed event, not headPosition(): that is the newest *readable* one, held back by
      // any transaction open anywhere in the cluster (another test file's, say), so it can lie before
      // the writes this test just awaited.
      const head = await app.get<EventStore>(EVENT_STORE).newestPosition();
      await until(() => projectionsReached(dataSource, projections, head), 10_000, `projections ${projections.join(', ')} caught up`);
    },
    async close() {
      watchShutdownHooks(app);
      const slow = setTimeout(() => process.stderr.write(`[shutdown-watch] app.close() pending after 30 s; active resources: ${process.getActiveResourcesInfo().join(', ')}\n`), 30_000);
      slow.unref();
      await app.close().finally(() => clearTimeout(slow));
      await dataSource.destroy();
      await db.drop();
    },
  };
  return api;
}
