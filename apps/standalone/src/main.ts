import 'reflect-metadata';
import { loadConfig, redact } from '../../../libs/config/src';
import { ensureDatabaseExists, runMigrations } from '../../../libs/database/src';
import { checkPostgres, checkRedis, closeOnSignal, runMain } from '../../../libs/observability/src';
import { createApiApp } from '../../api/src/create-api-app';
import { WorkerPartModule } from '../../worker/src/worker.module';

/**
 * `npm start`: one process for one machine. Creates the database if needed, migrates it,
 * then serves the API with the worker (projectors) in the same process.
 */
runMain(async () => {
  const config = loadConfig();
  const created = await ensureDatabaseExists(config.databaseUrl).catch(() => false);
  await checkPostgres(config);
  await checkRedis(config);
  const applied = await runMigrations(config.databaseUrl);
  const app = await createApiApp(config, [WorkerPartModule.forRoot()]);
  closeOnSignal(app, config.shutdownTimeoutMs);
  await app.listen({ port: config.port, host: config.host });
  const base = `http://127.0.0.1:${config.port}`;
  process.stdout.write(
    [
      '',
      `AI visibility service on ${base}`,
      `  database ${redact(config.databaseUrl)}${created ? ' (created)' : ''}, ${applied.length} migration(s) applied`,
      `  try:  curl -s ${base}/ready`,
      '',
    ].join('\n') + '\n',
  );
});
