import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { loadConfig, sectionOf } from '@libs/config';
import { ApiError } from '@libs/http';
import { AGENT_ANALYTICS_CONFIG } from '../agent-analytics.config';
import { BatchIntake } from './batch-intake';
import { IngestThreadModule } from './ingest-thread.module';
import type { ThreadReply, ThreadRequest } from './ingest-lane';

/**
 * The API's ingestion thread (IngestThreadLane): takes the batches the API's requests hand it, one
 * message each, and answers each with its counts, the client's error (ApiError's status, code,
 * message and details), or why it failed. On `close` it finishes what it holds, closes its
 * connections and ends. If its application context cannot start (the database unreachable), it
 * answers the batch that found it so and ends, and the API starts another with the next batch.
 */
const port = parentPort!;
const config = loadConfig((workerData as { env: Record<string, string> }).env, [AGENT_ANALYTICS_CONFIG]);
// Batches are bulk work: on a busy machine they wait for the CPU, not the requests the API's own
// thread serves. On Linux a nice value belongs to a thread (setpriority of "0" is the calling
// thread); elsewhere it would be the whole process's, so it is left alone there.
if (process.platform === 'linux') {
  try {
    setPriority(0, sectionOf(config, AGENT_ANALYTICS_CONFIG).ingestNice);
  } catch {
    /* a container may refuse it: the thread runs at the process's priority */
  }
}
const context = NestFactory.createApplicationContext(IngestThreadModule.forRoot(config), { logger: ['error', 'warn'], abortOnError: false });
let held = 0;
let closing = false;

async function end(code: number): Promise<void> {
  await (await context.catch(() => null))?.close().catch(() => undefined);
  process.exit(code);
}

port.on('message', (message: ThreadRequest) => {
  if ('close' in message) {
    closing = true;
    if (held === 0) void end(0);
    return;
  }
  held++;
  void (async () => {
    let reply: ThreadReply;
    let broken = false;
    try {
      const app = await context.catch((error: Error) => {
        broken = true;
        throw error;
      });
      reply = { id: message.id, answer: await app.get(BatchIntake).take(message.batch) };
    } catch (error) {
      reply =
        error instanceof ApiError
          ? { id: message.id, refused: { status: error.getStatus(), code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) } }
          : { id: message.id, failed: (error as Error).message };
    }
    port.postMessage(reply);
    held--;
    if (broken) void end(1);
    else if (closing && held === 0) void end(0);
  })();
});
