import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { ApiError, type ErrorCode } from '@libs/http';
import type { BatchIntake, IngestAnswer, IngestBatch } from './batch-intake';

/** Where the API takes an ingested batch (BatchIntake): in a thread of its own, or in the request's. */
export abstract class IngestLane {
  /** The batch's answer; ApiError for what the client sent wrong. */
  abstract take(batch: IngestBatch): Promise<IngestAnswer>;
}

/** The request's own thread (AGENT_INGEST_THREAD=off). */
export class SameThreadLane extends IngestLane {
  constructor(private readonly intake: BatchIntake) {
    super();
  }

  take(batch: IngestBatch): Promise<IngestAnswer> {
    return this.intake.take(batch);
  }
}

/** What the ingestion thread answers for one batch. */
export type ThreadReply =
  | { id: number; answer: IngestAnswer }
  | { id: number; refused: { status: number; code: ErrorCode; message: string; details?: Record<string, unknown> } }
  | { id: number; failed: string };

/** What the API sends the ingestion thread: a batch, or the word to finish and close. */
export type ThreadRequest = { id: number; batch: IngestBatch } | { close: true };

interface Waiting {
  resolve(answer: IngestAnswer): void;
  reject(error: Error): void;
}

/**
 * Batches taken on a thread of their own (`ingest.thread.ts`: its own event loop, its own
 * application context and its own AGENT_INGEST_CONNECTIONS + 2 connections). A batch's parsing,
 * checks, classification and COPY encoding are CPU work: on the thread that serves requests, every
 * other request of the process (another organisation's reads) waited behind it, and on a loaded
 * machine that thread, always busy, lost the kernel's preference for threads that wake from sleep.
 *
 * The thread starts with the first batch and is started again after it fails; a batch in flight
 * when it fails answers 503 and stored nothing (its transaction ends with its connection). On
 * shutdown the thread finishes the batches it holds, closes its connections and ends.
 */
export class IngestThreadLane extends IngestLane implements OnApplicationShutdown {
  private readonly logger = new Logger('IngestThreadLane');
  private thread: { worker: Worker; waiting: Map<number, Waiting> } | null = null;
  private next = 0;

  constructor(
    /** The variables the process's configuration was loaded from: the thread loads its own from them. */
    private readonly env: Readonly<Record<string, string>>,
    private readonly shutdownTimeoutMs: number,
  ) {
    super();
  }

  take(batch: IngestBatch): Promise<IngestAnswer> {
    const { worker, waiting } = this.thread ?? this.start();
    const id = ++this.next;
    return new Promise<IngestAnswer>((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      worker.postMessage({ id, batch } satisfies ThreadRequest);
    });
  }

  async onApplicationShutdown(): Promise<void> {
    if (!this.thread) return;
    const { worker } = this.thread;
    this.thread = null;
    const ended = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage({ close: true } satisfies ThreadRequest);
    const timer = setTimeout(() => void worker.terminate(), Math.max(this.shutdownTimeoutMs, 1000));
    await ended;
    clearTimeout(timer);
  }

  private start(): { worker: Worker; waiting: Map<number, Waiting> } {
    // Compiled, the thread is a .js beside this file; from the sources (tests, `-r @swc-node/register`), a .ts the thread compiles as it loads.
    const file = join(__dirname, `ingest.thread${extname(__filename)}`);
    const fromSources = file.endsWith('.ts');
    const execArgv = fromSources && !process.execArgv.includes('@swc-node/register') ? [...process.execArgv, '-r', '@swc-node/register'] : process.execArgv;
    const worker = new Worker(file, { workerData: { env: this.env }, execArgv });
    // The HTTP server keeps the process alive; an idle thread alone does not.
    worker.unref();
    const waiting = new Map<number, Waiting>();
    const thread = { worker, waiting };
    worker.on('message', (reply: ThreadReply) => {
      const w = waiting.get(reply.id);
      if (!w) return;
      waiting.delete(reply.id);
      if ('answer' in reply) w.resolve(reply.answer);
      else if ('refused' in reply) w.reject(new ApiError(reply.refused.status, reply.refused.code, reply.refused.message, reply.refused.details));
      else w.reject(new Error(`the ingestion thread failed the batch: ${reply.failed}`));
    });
    const fail = (why: string) => {
      if (this.thread === thread) this.thread = null;
      // Its connections ended with it, and with them the batch's transaction: nothing of it was stored, and it can be sent again.
      for (const w of waiting.values()) w.reject(new ApiError(503, 'SERVICE_UNAVAILABLE', 'The ingestion thread stopped while taking the batch: nothing of it was stored; send it again'));
      if (why !== 'exit 0') this.logger.error(`the ingestion thread stopped (${why}); the next batch starts another`);
      waiting.clear();
    };
    // An uncaught error ends the thread: 'exit' follows it and answers what it held, once.
    let cause = '';
    worker.on('error', (error) => (cause = `${error.message}, `));
    worker.on('exit', (code) => fail(`${cause}exit ${code}`));
    this.thread = thread;
    return thread;
  }
}
