import type { DataSource } from 'typeorm';
import type { AttemptOutcome } from '../domain';
import { Batcher } from './batcher';
import type { WebhookSecretBox } from '../secret-box';

/** What one attempt needs: the delivery and its subscription as they are now. */
export interface DeliveryToSend {
  id: string;
  status: string;
  attempts: number;
  body: string;
  eventAt: Date;
  webhookId: number;
  url: string;
  secret: string;
  headers: Record<string, string>;
  isActive: boolean;
}

export interface AttemptRecord {
  id: string;
  webhookId: number;
  /** 1-based number of this attempt. */
  attempt: number;
  attemptedAt: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseExcerpt: string | null;
  /** 'cancelled': the subscription was inactive, nothing was sent. */
  outcome: AttemptOutcome | { kind: 'cancelled' };
}

type Row = Record<string, unknown>;

/**
 * The worker's reads and writes of deliveries, batched: concurrent attempts load their rows in
 * one query and record their results in one statement (a compare-and-set on the attempt count,
 * so a duplicate job can never record twice).
 */
export class DeliveryStore {
  private readonly loader: Batcher<string, DeliveryToSend | null>;
  private readonly recorder: Batcher<AttemptRecord, boolean>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly disableAfterMs: number,
    /** Opens the sealed secret and header values. */
    private readonly box: WebhookSecretBox,
  ) {
    this.loader = new Batcher((ids) => this.loadMany(ids), 500, 2);
    this.recorder = new Batcher((records) => this.recordMany(records), 500, 5);
  }

  load(id: string): Promise<DeliveryToSend | null> {
    return this.loader.push(id);
  }

  /** True when recorded; false when another attempt already recorded this one. */
  record(r: AttemptRecord): Promise<boolean> {
    return this.recorder.push(r);
  }

  private async loadMany(ids: string[]): Promise<(DeliveryToSend | null)[]> {
    const rows: Row[] = await this.dataSource.query(
      `SELECT d.id, d.status, d.attempts, d.body, d.event_at, d.webhook_id, w.url, w.secret, w.headers, w.is_active
         FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id WHERE d.id = ANY($1::uuid[])`,
      [[...new Set(ids)]],
    );
    const byId = new Map(
      rows.map((r) => [
        String(r.id),
        {
          id: String(r.id),
          status: String(r.status),
          attempts: Number(r.attempts),
          body: String(r.body),
          eventAt: r.event_at as Date,
          webhookId: Number(r.webhook_id),
          url: String(r.url),
          secret: this.box.open(String(r.secret)),
          headers: this.box.openHeaders((r.headers as Record<string, string>) ?? {}),
          isActive: Boolean(r.is_active),
        } satisfies DeliveryToSend,
      ]),
    );
    return ids.map((id) => byId.get(id) ?? null);
  }

  private async recordMany(records: AttemptRecord[]): Promise<boolean[]> {
    const rows = records.map((r) => ({
      id: r.id,
      attempt: r.attempt,
      attempted_at: r.attemptedAt.toISOString(),
      status_code: r.statusCode,
      duration_ms: r.durationMs,
      error: r.error,
      excerpt: r.responseExcerpt,
      outcome: r.outcome.kind,
      delay_ms: r.outcome.kind === 'retry' ? r.outcome.delayMs : null,
    }));
    // Per subscription: did anything succeed, when did the failures after the last success start, did it answer 410.
    const perWebhook = new Map<number, { lastSuccess: number | null; firstFailure: number | null; gone: boolean; failed: boolean }>();
    for (const r of [...records].sort((a, b) => a.attemptedAt.getTime() - b.attemptedAt.getTime())) {
      if (r.outcome.kind === 'cancelled') continue;
      const w = perWebhook.get(r.webhookId) ?? { lastSuccess: null, firstFailure: null, gone: false, failed: false };
      const t = r.attemptedAt.getTime();
      if (r.outcome.kind === 'succeeded') {
        w.lastSuccess = t;
        w.firstFailure = null;
      } else {
        w.failed = true;
        w.firstFailure ??= t;
        if (r.outcome.kind === 'gone') w.gone = true;
      }
      perWebhook.set(r.webhookId, w);
    }
    const webhooks = [...perWebhook].map(([id, w]) => ({
      id,
      succeeded: w.lastSuccess !== null,
      first_failure: w.firstFailure === null ? null : new Date(w.firstFailure).toISOString(),
      gone: w.gone,
    }));
    return this.dataSource.transaction(async (m) => {
      const updated: { id: string }[] = await m.query(
        `WITH x AS (
           SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(id uuid, attempt int, attempted_at timestamptz, status_code int, duration_ms int,
             error text, excerpt text, outcome text, delay_ms bigint)
         ), upd AS (
           UPDATE webhook_deliveries d SET
             attempts = CASE WHEN x.outcome = 'cancelled' THEN d.attempts ELSE x.attempt END,
             status = CASE x.outcome WHEN 'succeeded' THEN 'succeeded' WHEN 'retry' THEN 'pending' WHEN 'cancelled' THEN 'cancelled' ELSE 'failed' END,
             next_attempt_at = CASE WHEN x.outcome = 'retry' THEN now() + x.delay_ms * interval '1 millisecond' ELSE d.next_attempt_at END,
             enqueued_at = NULL,
             completed_at = CASE WHEN x.outcome = 'retry' THEN NULL ELSE now() END,
             last_status_code = CASE WHEN x.outcome = 'cancelled' THEN d.last_status_code ELSE x.status_code END,
             last_error = CASE WHEN x.outcome = 'cancelled' THEN 'subscription inactive: not sent' ELSE x.error END
           FROM x WHERE d.id = x.id AND d.status = 'pending' AND d.attempts = x.attempt - 1
           RETURNING d.id
         ), ins AS (
           INSERT INTO webhook_delivery_attempts (delivery_id, attempt, attempted_at, status_code, duration_ms, error, response_excerpt)
           SELECT x.id, x.attempt, x.attempted_at, x.status_code, x.duration_ms, x.error, x.excerpt
             FROM x JOIN upd ON upd.id = x.id WHERE x.outcome <> 'cancelled'
           ON CONFLICT DO NOTHING
         )
         SELECT id::text FROM upd`,
        [JSON.stringify(rows)],
      );
      if (webhooks.length) {
        // A success ends a run of failures; failures start one (or continue it). 410, or a run
        // older than the limit, deactivates the subscription.
        await m.query(
          `UPDATE webhooks w SET
             failing_since = CASE WHEN y.succeeded THEN y.first_failure ELSE COALESCE(w.failing_since, y.first_failure) END,
             is_active = w.is_active AND NOT y.gone
               AND NOT (y.first_failure IS NOT NULL AND CASE WHEN y.succeeded THEN y.first_failure ELSE COALESCE(w.failing_since, y.first_failure) END <= now() - $2 * interval '1 millisecond'),
             deactivated_reason = CASE WHEN NOT w.is_active THEN w.deactivated_reason WHEN y.gone THEN 'gone'
               WHEN y.first_failure IS NOT NULL AND CASE WHEN y.succeeded THEN y.first_failure ELSE COALESCE(w.failing_since, y.first_failure) END <= now() - $2 * interval '1 millisecond' THEN 'failing'
               ELSE w.deactivated_reason END,
             updated_at = now()
           FROM jsonb_to_recordset($1::jsonb) AS y(id bigint, succeeded boolean, first_failure timestamptz, gone boolean)
           -- Successes of a healthy subscription change nothing: no write, no row lock between concurrent batches.
           WHERE w.id = y.id AND (y.gone OR w.failing_since IS NOT NULL OR (y.first_failure IS NOT NULL AND w.is_active))`,
          [JSON.stringify(webhooks), this.disableAfterMs],
        );
        const failed = webhooks.filter((w) => w.first_failure !== null || w.gone).map((w) => w.id);
        if (failed.length) await m.query(`UPDATE webhooks SET deactivated_at = now() WHERE id = ANY($1::bigint[]) AND NOT is_active AND deactivated_at IS NULL`, [failed]);
      }
      const done = new Set(updated.map((u) => u.id));
      return records.map((r) => done.has(r.id));
    });
  }

  /**
   * The relay's claim: due, pending deliveries not yet handed to BullMQ, marked as handed over
   * (SKIP LOCKED: several workers share the work). Returns each with the attempt it is for.
   */
  async claimDue(limit: number): Promise<{ id: string; attempt: number; eventAt: Date }[]> {
    const result: unknown = await this.dataSource.query(
      `UPDATE webhook_deliveries d SET enqueued_at = now()
         FROM (SELECT id FROM webhook_deliveries WHERE status = 'pending' AND enqueued_at IS NULL AND next_attempt_at <= now()
               ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED) due
        WHERE d.id = due.id
        RETURNING d.id::text, d.attempts, d.event_at`,
      [limit],
    );
    const rows = (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as Row[];
    return rows.map((r) => ({ id: String(r.id), attempt: Number(r.attempts) + 1, eventAt: r.event_at as Date }));
  }

  /** Pending deliveries handed to BullMQ more than `graceMs` ago (the reconciler checks BullMQ still holds them). */
  async handedOver(graceMs: number, afterId: string | null, limit: number): Promise<{ id: string; attempt: number }[]> {
    const rows: Row[] = await this.dataSource.query(
      `SELECT id::text, attempts FROM webhook_deliveries
        WHERE status = 'pending' AND enqueued_at IS NOT NULL AND enqueued_at < now() - $1 * interval '1 millisecond'
          AND ($2::uuid IS NULL OR id > $2::uuid)
        ORDER BY id LIMIT $3`,
      [graceMs, afterId, limit],
    );
    return rows.map((r) => ({ id: String(r.id), attempt: Number(r.attempts) + 1 }));
  }

  /** Hands lost deliveries back to the relay (only if nothing moved them meanwhile). */
  async release(lost: { id: string; attempt: number }[]): Promise<number> {
    if (!lost.length) return 0;
    const result: unknown = await this.dataSource.query(
      `UPDATE webhook_deliveries d SET enqueued_at = NULL
         FROM jsonb_to_recordset($1::jsonb) AS x(id uuid, attempt int)
        WHERE d.id = x.id AND d.status = 'pending' AND d.enqueued_at IS NOT NULL AND d.attempts = x.attempt - 1
        RETURNING d.id`,
      [JSON.stringify(lost)],
    );
    const rows = (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as Row[];
    return rows.length;
  }
}
