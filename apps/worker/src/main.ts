import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { checkPostgres, checkRedis, closeOnSignal, runMain } from '@libs/observability';
import { WorkerModule } from './worker.module';
import { loadServiceConfig } from '../../composition/config';

runMain(async () => {
  const config = loadServiceConfig();
  await checkPostgres(config);
  await checkRedis(config);
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config), { bufferLogs: true });
  app.useLogger(app.get(Logger));
  closeOnSignal(app, config.shutdownTimeoutMs);
  app.get(Logger).log(`worker ${process.pid} started`);
});
