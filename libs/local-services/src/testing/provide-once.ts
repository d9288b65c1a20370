import 'reflect-metadata';
import { loadConfig } from '@libs/config';
import { LOCAL_SERVICES_CONFIG } from '../local-services.config';
import { provideLocalServices } from '../local-services';

/**
 * A process that takes the servers npm start would (from its environment), prints what it got as
 * one JSON line, and releases them: for tests that need another process or another account.
 */
async function main(): Promise<void> {
  const services = await provideLocalServices(process.env, loadConfig(process.env, [LOCAL_SERVICES_CONFIG]));
  process.stdout.write(JSON.stringify({ database: services.database, redis: services.redis, uid: process.getuid?.() }) + '\n');
  await services.release();
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
});
