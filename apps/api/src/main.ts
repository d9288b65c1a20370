import 'reflect-metadata';
import { checkPostgres, checkRedis, closeOnSignal, runMain } from '@libs/observability';
import { createApiApp } from './create-api-app';
import { loadServiceConfig } from '../../composition/config';

runMain(async () => {
  const config = loadServiceConfig();
  // Signals are handled from the start (a SIGTERM while the application is being created closes it cleanly).
  let starting: ReturnType<typeof createApiApp> | null = null;
  closeOnSignal({ close: async () => (await starting)?.close() }, config.shutdownTimeoutMs);
  await checkPostgres(config);
  await checkRedis(config);
  starting = createApiApp(config);
  const app = await starting;
  await app.listen({ port: config.port, host: config.host });
});
