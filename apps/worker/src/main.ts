import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { loadConfig } from '@libs/config';
import { checkPostgres, checkRedis, closeOnSignal, runMain } from '@libs/observability';
import { WorkerModule } from './worker.module';

runMain(async () => {
  const config = loadConfig();
  await checkPostgres(config);
  await checkRedis(config);
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config), { bufferLogs: true });
  app.useLogger(app.get(Logger));
  closeOnSignal(app, config.shutdownTimeoutMs);
  app.get(Logger).log(`worker ${process.pid} started`);
});
