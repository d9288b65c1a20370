import 'reflect-metadata';
import { checkPostgres, checkRedis, closeOnSignal, runMain } from '@libs/observability';
import { createApiApp } from './create-api-app';
import { loadServiceConfig } from '../../composition/config';

runMain(async () => {
  const config = loadServiceConfig();
  await checkPostgres(config);
  await checkRedis(config);
  const app = await createApiApp(config);
  closeOnSignal(app, config.shutdownTimeoutMs);
  await app.listen({ port: config.port, host: config.host });
});
