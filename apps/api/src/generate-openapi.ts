/**
 * Writes the API's OpenAPI document to a file without a database, Redis or a listening port:
 * the Nest application is built in preview mode (modules scanned, nothing instantiated).
 *
 *   npm run openapi:generate [-- --out FILE]     (default dist/openapi.json)
 */
import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { buildOpenApiDocument } from '@libs/http';
import { ApiModule } from './api.module';
import { API_ACCESS, API_WEBHOOKS } from './create-api-app';
import { loadServiceConfig } from '../../composition/config';

function outputPath(args: string[]): string {
  const at = args.findIndex((a) => a === '--out' || a.startsWith('--out='));
  if (at === -1) return 'dist/openapi.json';
  const value = args[at].includes('=') ? args[at].slice('--out='.length) : args[at + 1];
  if (!value) throw new Error('--out needs a file name');
  return value;
}

async function main(): Promise<void> {
  const out = resolve(outputPath(process.argv.slice(2)));
  const app = await NestFactory.create<NestFastifyApplication>(ApiModule.forRoot(loadServiceConfig()), new FastifyAdapter(), {
    preview: true,
    logger: ['error'],
    abortOnError: false,
  });
  const document = buildOpenApiDocument(app, API_ACCESS, API_WEBHOOKS);
  await app.close();
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(document, null, 2)}\n`);
  const operations = Object.values(document.paths).reduce((n, item) => n + Object.keys(item).length, 0);
  console.warn(`wrote ${out}: OpenAPI ${document.openapi}, version ${document.info.version}, ${operations} operations`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
