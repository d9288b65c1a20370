import 'reflect-metadata';
import { createDataSource, ensureDatabaseExists, runMigrations } from '@libs/database';
import type { Logger as PinoLogger } from 'pino';
import { ROOT_LOGGER, checkPostgres, checkRedis, closeOnSignal, runMain } from '@libs/observability';
import { provideLocalServices } from '@libs/local-services';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApiApp } from '../../api/src/create-api-app';
import { ALL_MIGRATIONS } from '../../composition/migrations';
import { WorkerPartModule } from '../../worker/src/worker.module';
import { isEmpty, seedDemo, type DemoSeed } from '../../cli/src/seed/seed-demo';
import { loadServiceConfig } from '../../composition/config';
import { dashboardAssets, DASHBOARD_PATH } from '../../dashboard/server/serve-dashboard';

/**
 * `npm start`: one process for one machine. Uses DATABASE_URL and REDIS_URL, or without them the
 * servers at their default addresses, or its own (an embedded PostgreSQL, a redis-server: see
 * @libs/local-services). Creates the database if needed, migrates it, seeds a demo organisation
 * when it is empty (printing its API key), then serves the API with the worker (projectors) in the
 * same process. Ctrl+C or SIGTERM closes the application, then stops the servers it started.
 */
runMain(async () => {
  const loaded = loadServiceConfig();
  const services = await provideLocalServices(process.env, loaded, (line) => process.stderr.write(`${line}\n`));
  let app: NestFastifyApplication | null = null;
  closeOnSignal(
    {
      close: async () => {
        await app?.close();
        await services.release();
      },
    },
    loaded.shutdownTimeoutMs,
  );
  const config = loadServiceConfig({ ...process.env, ...services.env });
  const created = await ensureDatabaseExists(config.databaseUrl).catch(() => false);
  await checkPostgres(config);
  await checkRedis(config);
  const applied = await runMigrations(config.databaseUrl, ALL_MIGRATIONS);
  const ds = createDataSource(config.databaseUrl, 1);
  await ds.initialize();
  const empty = await isEmpty(ds).finally(() => ds.destroy());
  const seeded: DemoSeed | null = empty ? await seedDemo(config) : null;
  app = await createApiApp(config, [WorkerPartModule.forRoot()]);
  await app.listen({ port: config.port, host: config.host });
  const base = `http://127.0.0.1:${config.port}`;
  const key = seeded?.keys[0].key ?? '<your API key>';
  // The dashboard is bundled now rather than on its first visit; a failed build is said here (the API serves on).
  const dashboard = await dashboardAssets().then(
    () => `${base}${DASHBOARD_PATH}   (sign in with ${seeded ? 'the demo API key below' : 'an API key'})`,
    (e: unknown) => `unavailable: the bundle did not build (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`,
  );
  const lines = [
    '',
    `AI visibility service: ${base}`,
    `  dashboard:      ${dashboard}`,
    `  API reference:  ${base}/docs`,
    `  database:       ${services.database}${created ? ' (database created)' : ''}, ${applied.length} migration(s) applied`,
    `  redis:          ${services.redis}`,
  ];
  if (seeded) {
    lines.push(
      `  demo:           organisation ${seeded.organization.id} "${seeded.organization.name}" (${seeded.brands.map((b) => b.name).join(', ')}), ${seeded.opportunities} opportunities, ${seeded.answers} AI answers over ${seeded.historyDays} days`,
      ...(seeded.loop ? [`  closed loop:    ${seeded.loop.stories.map((s) => `#${s.opportunityId} ${s.status}`).join(', ')} (opened by the detectors over the history; GET /api/v1/opportunities/ID/events)`] : []),
      `  demo API key:   ${key}   (all scopes; shown once)`,
    );
  } else {
    lines.push('  API key:        the database already has data; make a key with: npm run cli -- key create --org ID --scopes all');
  }
  lines.push('  try:', `    curl -s -H 'X-API-Key: ${key}' '${base}/api/v1/opportunities?severity=high,critical&limit=5'`, '  stop:           Ctrl+C (or SIGTERM)', '');
  // The banner is the last thing printed: whatever the logger holds is written first.
  await new Promise<void>((resolve) => app!.get<PinoLogger>(ROOT_LOGGER).flush(() => resolve()));
  process.stdout.write(lines.join('\n') + '\n');
});
