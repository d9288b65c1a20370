import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { NestLogger, checkPostgres, checkRedis, closeOnSignal, runMain } from '@libs/observability';
import { WorkerModule } from './worker.module';
import { loadServiceConfig } from '../../composition/config';

runMain(async () => {
  const config = loadServiceConfig();
  await checkPostgres(config);
  await checkRedis(config);
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config), { bufferLogs: true });
  app.useLogger(app.get(NestLogger));
  closeOnSignal(app, config.shutdownTimeoutMs);
  app.get(NestLogger).log(`worker ${process.pid} started`);
});
