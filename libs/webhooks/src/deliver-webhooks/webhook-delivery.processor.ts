import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { Client } from 'pg';
import { Counter, register } from 'prom-client';
import { DataSource } from 'typeorm';
import { APP_CONFIG, InjectConfig, type AppConfig } from '@libs/config';
import { Queues, type ProcessedQueue, type QueueDefinition } from '@libs/queue';
import { decideAfterAttempt, parseRetryAfter } from '../domain';
import { DELIVERY_CHANNEL } from '../webhooks.repository';
import { WEBHOOKS_CONFIG, type WebhooksConfig } from '../webhooks.config';
import { DeliveryStore } from './delivery-store';
import { WebhookSecretBox } from '../secret-box';
import { WebhookSender } from './webhook-sender';

/** Hash-tagged, so every key of the queue lands in one Redis Cluster slot. */
export const DELIVERY_QUEUE = '{webhook-deliveries}';
/** One BullMQ job per attempt of a delivery: re-adding the same attempt collapses into the job already there. */
export const jobIdOf = (deliveryId: string, attempt: number) => `${deliveryId}_${attempt}`;

/** The delivery queue: one job per attempt, retries are scheduled in PostgreSQL (not by BullMQ). */
export function deliveryQueue(config: Pick<WebhooksConfig, 'concurrency'>): QueueDefinition {
  return {
    name: DELIVERY_QUEUE,
    concurrency: config.concurrency,
    // The lock is renewed while an attempt runs; a killed worker's jobs are taken back within ~15 s.
    lockDuration: 10_000,
    stalledInterval: 5_000,
    maxStalledCount: 5,
    removeOnComplete: { count: 0 },
    removeOnFail: { count: 0 },
    depthMetric: { name: 'webhook_queue_depth', help: 'Webhook delivery jobs waiting, delayed or active in BullMQ' },
  };
}

interface DeliveryJob {
  id: string;
  attempt: number;
}

const RELAY_BATCH = 1000;

/**
 * Whether BullMQ still holds a delivery's job: 1 when its hash is a job's (addJob always writes
 * `timestamp`), 0 when there is none. A hash without it is what BullMQ's scripts leave when a
 * job's hash was lost while its id was still queued: taking the id from `wait` writes
 * `processedOn` and `ats` into a new, partial hash, the worker gets a job without data, and the
 * hash stays, in no list, for good. It is no job, and it would make re-adding the job id a no-op
 * (a duplicate), so it is deleted with its lock and the delivery is lost like any other.
 */
const HOLDS_JOB = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if redis.call('HEXISTS', KEYS[1], 'timestamp') == 1 then return 1 end
redis.call('DEL', KEYS[1], KEYS[2])
return 0`;
/** Unref'd: a pending wait never keeps a stopping process alive. */
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

function metric<T>(name: string, make: () => T): T {
  return (register.getSingleMetric(name) as T | undefined) ?? make();
}

/**
 * The delivery side, in the worker: PostgreSQL's `webhook_deliveries` is the source of truth,
 * BullMQ only executes it.
 * - Relay (outbox): claims due, pending deliveries not yet handed over (marking them), then adds
 *   one job per attempt (jobId = delivery id + attempt: duplicates collapse). Woken by NOTIFY
 *   (sent at commit by the dispatcher and the test endpoint) and at the next due retry; polls too.
 * - Processor: loads the delivery and its subscription, sends the signed attempt, records it
 *   with a compare-and-set on the attempt count and schedules the retry in the row.
 * - Reconciler: handed-over deliveries whose job BullMQ no longer holds (Redis flushed, restarted
 *   without persistence, or a crash between claim and add; or only a partial hash is left, see
 *   HOLDS_JOB) go back to the relay.
 */
@Injectable()
export class WebhookDeliveryProcessor implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private readonly store: DeliveryStore;
  private readonly sender: WebhookSender;
  private deliveries: ProcessedQueue<DeliveryJob, string> | null = null;
  private listener: Client | null = null;
  private stopping = false;
  private wake: (() => void) | null = null;
  private woken = false;
  private loops: Promise<void>[] = [];
  private signalStop: () => void = () => undefined;
  private readonly stopped = new Promise<void>((resolve) => (this.signalStop = resolve));
  private readonly attempts = metric(
    'webhook_delivery_attempts_total',
    () => new Counter({ name: 'webhook_delivery_attempts_total', help: 'Webhook delivery attempts by outcome', labelNames: ['outcome'] }),
  );
  private readonly reEnqueued = metric(
    'webhook_deliveries_reconciled_total',
    () => new Counter({ name: 'webhook_deliveries_reconciled_total', help: 'Deliveries the reconciler handed back because BullMQ had lost their job' }),
  );

  constructor(
    private readonly dataSource: DataSource,
    private readonly queues: Queues,
    @Inject(APP_CONFIG) private readonly app: AppConfig,
    @InjectConfig(WEBHOOKS_CONFIG) private readonly config: WebhooksConfig,
    box: WebhookSecretBox,
  ) {
    this.store = new DeliveryStore(dataSource, config.disableAfterMs, box);
    this.sender = new WebhookSender({ timeoutMs: config.timeoutMs, allowPrivate: config.allowPrivateUrls });
  }

  onApplicationBootstrap(): void {
    this.deliveries = this.queues.process<DeliveryJob, string>(deliveryQueue(this.config), (job) => this.process(job));
    this.loops.push(this.listen(), this.relay(), this.reconcileLoop());
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    this.signalStop();
    this.wake?.();
    await this.deliveries?.closeWorker();
    await Promise.all(this.loops);
    await this.listener?.end().catch(() => undefined);
    // The queue and its connections close at application shutdown (libs/queue).
    this.sender.close();
  }

  /** Wakes the relay (a new delivery, or deliveries handed back). */
  poke(): void {
    this.woken = true;
    this.wake?.();
  }

  private async pause(ms: number): Promise<void> {
    if (this.woken || this.stopping) {
      this.woken = false;
      return;
    }
    await Promise.race([sleep(ms), new Promise<void>((resolve) => (this.wake = resolve))]);
    this.wake = null;
    this.woken = false;
  }

  private async process(job: DeliveryJob): Promise<string> {
    const d = await this.store.load(job.id);
    // Deleted, finished, or this attempt already made: a duplicate job, nothing to do.
    if (!d || d.status !== 'pending' || d.attempts !== job.attempt - 1) return 'stale';
    if (!d.isActive) {
      await this.store.record({ id: d.id, webhookId: d.webhookId, attempt: job.attempt, attemptedAt: new Date(), statusCode: null, durationMs: 0, error: null, responseExcerpt: null, outcome: { kind: 'cancelled' } });
      this.attempts.inc({ outcome: 'cancelled' });
      return 'cancelled';
    }
    const attemptedAt = new Date();
    const result = await this.sender.send({ url: d.url, secret: d.secret, id: d.id, body: d.body, headers: d.headers });
    const outcome = decideAfterAttempt(job.attempt, result.statusCode, parseRetryAfter(result.retryAfter, new Date()), this.config.retryScheduleMs);
    await this.store.record({
      id: d.id,
      webhookId: d.webhookId,
      attempt: job.attempt,
      attemptedAt,
      statusCode: result.statusCode,
      durationMs: result.durationMs,
      error: result.error,
      responseExcerpt: result.responseExcerpt,
      outcome,
    });
    this.attempts.inc({ outcome: outcome.kind });
    if (outcome.kind === 'retry') this.poke();
    return outcome.kind;
  }

  /** LISTEN for new deliveries (reconnecting); notifications wake the relay. */
  private async listen(): Promise<void> {
    while (!this.stopping) {
      const client = new Client({ connectionString: this.app.databaseUrl });
      try {
        const ended = new Promise<void>((resolve) => {
          client.on('error', () => resolve());
          client.on('end', () => resolve());
        });
        await client.connect();
        this.listener = client;
        client.on('notification', () => this.poke());
        await client.query(`LISTEN ${DELIVERY_CHANNEL}`);
        this.poke(); // catch up on anything committed while not listening
        await Promise.race([ended, this.untilStopping()]);
      } catch {
        /* reconnect below */
      } finally {
        this.listener = null;
        await client.end().catch(() => undefined);
      }
      if (!this.stopping) await sleep(1000);
    }
  }

  private untilStopping(): Promise<void> {
    return this.stopped;
  }

  private async relay(): Promise<void> {
    while (!this.stopping) {
      let claimed = 0;
      let wait = this.config.relayPollMs;
      try {
        const due = await this.store.claimDue(RELAY_BATCH);
        claimed = due.length;
        if (due.length) {
          try {
            await this.deliveries!.queue.addBulk(due.map((d) => ({ name: 'deliver', data: { id: d.id, attempt: d.attempt }, opts: { jobId: jobIdOf(d.id, d.attempt) } })));
          } catch (error) {
            // Not handed over after all: give them back now (the reconciler would, later).
            await this.store.release(due).catch(() => undefined);
            throw error;
          }
        }
        if (claimed < RELAY_BATCH) {
          const next = await this.nextDueInMs();
          if (next !== null) wait = Math.max(0, Math.min(wait, next));
        }
      } catch (error) {
        if (!this.stopping) this.logger.warn(`relay: ${(error as Error).message}`);
      }
      if (claimed < RELAY_BATCH) await this.pause(wait);
    }
  }

  private async nextDueInMs(): Promise<number | null> {
    const [row]: { ms: string | null }[] = await this.dataSource.query(
      `SELECT (extract(epoch FROM min(next_attempt_at) - now()) * 1000)::bigint AS ms FROM webhook_deliveries WHERE status = 'pending' AND enqueued_at IS NULL`,
    );
    return row?.ms === null || row?.ms === undefined ? null : Math.max(0, Number(row.ms));
  }

  private async reconcileLoop(): Promise<void> {
    while (!this.stopping) {
      await Promise.race([sleep(this.config.reconcileMs), this.untilStopping()]);
      if (this.stopping) break;
      try {
        await this.reconcile();
      } catch (error) {
        this.logger.warn(`reconciler: ${(error as Error).message}`);
      }
    }
  }

  /** Hands back every due delivery BullMQ no longer holds; returns how many. */
  async reconcile(): Promise<number> {
    const grace = Math.min(5000, this.config.reconcileMs);
    const { queue, connection: client } = this.deliveries!;
    let after: string | null = null;
    let released = 0;
    for (;;) {
      const rows = await this.store.handedOver(grace, after, 1000);
      if (!rows.length) break;
      const pipeline = client.pipeline();
      for (const r of rows) {
        const key = queue.toKey(jobIdOf(r.id, r.attempt));
        pipeline.eval(HOLDS_JOB, 2, key, `${key}:lock`);
      }
      const found = (await pipeline.exec()) ?? [];
      const lost = rows.filter((_, i) => found[i]?.[1] === 0);
      released += await this.store.release(lost);
      after = rows[rows.length - 1].id;
      if (rows.length < 1000) break;
    }
    if (released) {
      this.reEnqueued.inc(released);
      this.logger.warn(`reconciler: ${released} deliveries had lost their BullMQ job; re-enqueuing`);
      this.poke();
    }
    return released;
  }
}
