import 'reflect-metadata';
import { loadConfig } from '@libs/config';
import { checkPostgres, checkRedis, closeOnSignal, runMain } from '@libs/observability';
import { createApiApp } from './create-api-app';

runMain(async () => {
  const config = loadConfig();
  await checkPostgres(config);
  await checkRedis(config);
  const app = await createApiApp(config);
  closeOnSignal(app, config.shutdownTimeoutMs);
  await app.listen({ port: config.port, host: config.host });
});
