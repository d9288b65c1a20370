import 'reflect-metadata';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestLogger, checkPostgres, checkRedis, closeOnSignal, runMain } from '@libs/observability';
import { WorkerModule } from './worker.module';
import { loadServiceConfig } from '../../composition/config';

runMain(async () => {
  const config = loadServiceConfig();
  // Signals are handled from the start: the projectors begin while the application is still being
  // created, and a SIGTERM then (a deploy stopping a worker that is starting) closes it cleanly.
  let starting: Promise<INestApplicationContext> | null = null;
  closeOnSignal({ close: async () => (await starting)?.close() }, config.shutdownTimeoutMs);
  await checkPostgres(config);
  await checkRedis(config);
  starting = NestFactory.createApplicationContext(WorkerModule.forRoot(config), { bufferLogs: true });
  const app = await starting;
  app.useLogger(app.get(NestLogger));
  app.get(NestLogger).log(`worker ${process.pid} started`);
});
