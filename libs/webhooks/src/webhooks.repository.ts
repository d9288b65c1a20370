import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { testPayload, type WebhookEventType } from './domain';
import { newWebhookSecret } from './domain';
import { InjectConfig, loadConfig, sectionOf } from '@libs/config';
import { WebhookSecretBox } from './secret-box';
import { WEBHOOKS_CONFIG, type WebhooksConfig } from './webhooks.config';

/** Who may see what: the caller's organisation and, for a client-bound credential, that client's subscriptions. */
export interface WebhookScope {
  organizationId: number;
  clientId: number | null;
}

export interface Webhook {
  id: number;
  organizationId: number;
  clientId: number | null;
  url: string;
  events: WebhookEventType[];
  description: string | null;
  /** Names of the custom headers (their values may be credentials and are never shown again). */
  headerNames: string[];
  isActive: boolean;
  deactivatedReason: string | null;
  deactivatedAt: string | null;
  failingSince: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface DeliveryAttempt {
  attempt: number;
  attemptedAt: string;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseExcerpt: string | null;
}

export interface Delivery {
  id: string;
  webhookId: number;
  eventId: string;
  eventType: string;
  status: 'pending' | 'succeeded' | 'failed' | 'cancelled';
  attemptCount: number;
  statusCode: number | null;
  durationMs: number | null;
  error: string | null;
  responseExcerpt: string | null;
  createdAt: string;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  completedAt: string | null;
  attempts: DeliveryAttempt[];
}

type Row = Record<string, unknown>;
const iso = (d: unknown) => (d === null || d === undefined ? null : (d as Date).toISOString());

const toWebhook = (r: Row): Webhook => ({
  id: Number(r.id),
  organizationId: Number(r.organization_id),
  clientId: r.client_id === null ? null : Number(r.client_id),
  url: String(r.url),
  events: r.events as WebhookEventType[],
  description: (r.description as string | null) ?? null,
  headerNames: Object.keys((r.headers as Record<string, string>) ?? {}),
  isActive: Boolean(r.is_active),
  deactivatedReason: (r.deactivated_reason as string | null) ?? null,
  deactivatedAt: iso(r.deactivated_at),
  failingSince: iso(r.failing_since),
  createdAt: iso(r.created_at)!,
  updatedAt: iso(r.updated_at)!,
});

const toAttempt = (a: Row): DeliveryAttempt => ({
  attempt: Number(a.attempt),
  attemptedAt: new Date(a.attemptedAt as string).toISOString(),
  statusCode: (a.statusCode as number | null) ?? null,
  durationMs: Number(a.durationMs),
  error: (a.error as string | null) ?? null,
  responseExcerpt: (a.responseExcerpt as string | null) ?? null,
});

const toDelivery = (r: Row): Delivery => {
  const attempts = ((r.attempt_list as Row[] | null) ?? []).map(toAttempt);
  const last = attempts[0];
  return {
    id: String(r.id),
    webhookId: Number(r.webhook_id),
    eventId: String(r.event_id),
    eventType: String(r.event_type),
    status: r.status as Delivery['status'],
    attemptCount: Number(r.attempts),
    statusCode: last?.statusCode ?? null,
    durationMs: last?.durationMs ?? null,
    error: last?.error ?? null,
    responseExcerpt: last?.responseExcerpt ?? null,
    createdAt: iso(r.created_at)!,
    lastAttemptAt: last?.attemptedAt ?? null,
    nextAttemptAt: r.status === 'pending' ? iso(r.next_attempt_at) : null,
    completedAt: iso(r.completed_at),
    attempts,
  };
};

/** The channel the relay listens on; a new due delivery notifies it (delivered at commit). */
export const DELIVERY_CHANNEL = 'webhook_deliveries';

const scopeSql = (alias = '') => `${alias}organization_id = $1 AND ($2::bigint IS NULL OR ${alias}client_id = $2)`;

@Injectable()
export class WebhooksRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly box: WebhookSecretBox,
    @InjectConfig(WEBHOOKS_CONFIG) private readonly config: WebhooksConfig,
  ) {}

  /**
   * A new subscription with a new secret (returned in plain text this once; stored sealed, like
   * the header values). An organisation holds at most WEBHOOK_MAX_SUBSCRIPTIONS: the count and the
   * insert run under a per-organisation lock, so concurrent creates cannot pass it. Null: full.
   */
  async create(
    scope: WebhookScope,
    input: { url: string; events: string[]; description: string | null; headers: Record<string, string>; isActive: boolean },
  ): Promise<(Webhook & { secret: string }) | null> {
    const secret = newWebhookSecret();
    const row = await this.dataSource.transaction(async (m) => {
      await m.query(`SELECT pg_advisory_xact_lock(hashtextextended('webhooks:' || $1::text, 0))`, [scope.organizationId]);
      const [{ n }]: { n: number }[] = await m.query(`SELECT count(*)::int AS n FROM webhooks WHERE organization_id = $1`, [scope.organizationId]);
      if (n >= this.config.maxSubscriptions) return null;
      const [inserted]: Row[] = await m.query(
        `INSERT INTO webhooks (organization_id, client_id, url, events, description, headers, secret, is_active)
         VALUES ($1, $2, $3, $4::text[], $5, $6::jsonb, $7, $8) RETURNING *`,
        [scope.organizationId, scope.clientId, input.url, input.events, input.description, JSON.stringify(this.box.sealHeaders(input.headers)), this.box.seal(secret), input.isActive],
      );
      return inserted;
    });
    return row ? { ...toWebhook(row), secret } : null;
  }

  async list(scope: WebhookScope, limit: number, offset: number, order: 'asc' | 'desc'): Promise<{ rows: Webhook[]; total: number }> {
    const rows: Row[] = await this.dataSource.query(
      `SELECT *, count(*) OVER () AS total FROM webhooks WHERE ${scopeSql()} ORDER BY id ${order === 'asc' ? 'ASC' : 'DESC'} LIMIT $3 OFFSET $4`,
      [scope.organizationId, scope.clientId, limit, offset],
    );
    let total = rows.length ? Number(rows[0].total) : 0;
    if (!rows.length && offset > 0) {
      const [{ n }]: { n: string }[] = await this.dataSource.query(`SELECT count(*) AS n FROM webhooks WHERE ${scopeSql()}`, [scope.organizationId, scope.clientId]);
      total = Number(n);
    }
    return { rows: rows.map(toWebhook), total };
  }

  async find(scope: WebhookScope, id: number): Promise<Webhook | null> {
    const [row]: Row[] = await this.dataSource.query(`SELECT * FROM webhooks WHERE id = $3 AND ${scopeSql()}`, [scope.organizationId, scope.clientId, id]);
    return row ? toWebhook(row) : null;
  }

  /** Applies the given changes; re-activating clears the deactivation and the failure streak. */
  async update(scope: WebhookScope, id: number, changes: { url?: string; events?: string[]; description?: string | null; isActive?: boolean }): Promise<Webhook | null> {
    const sets: string[] = [];
    const params: unknown[] = [scope.organizationId, scope.clientId, id];
    const set = (sql: string, value: unknown) => {
      params.push(value);
      sets.push(sql.replace('?', `$${params.length}`));
    };
    if (changes.url !== undefined) set('url = ?', changes.url);
    if (changes.events !== undefined) set('events = ?::text[]', changes.events);
    if (changes.description !== undefined) set('description = ?', changes.description);
    if (changes.isActive === true) sets.push(`is_active = true, deactivated_reason = NULL, deactivated_at = NULL, failing_since = NULL`);
    if (changes.isActive === false) sets.push(`is_active = false, deactivated_reason = CASE WHEN is_active THEN 'by request' ELSE deactivated_reason END, deactivated_at = COALESCE(deactivated_at, now())`);
    sets.push('updated_at = now()');
    const rows: Row[] = await this.dataSource.query(`UPDATE webhooks SET ${sets.join(', ')} WHERE id = $3 AND ${scopeSql()} RETURNING *`, params);
    const row = (Array.isArray(rows[0]) ? (rows[0] as Row[])[0] : rows[0]) as Row | undefined;
    return row ? toWebhook(row) : null;
  }

  async delete(scope: WebhookScope, id: number): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(`DELETE FROM webhooks WHERE id = $3 AND ${scopeSql()} RETURNING id`, [scope.organizationId, scope.clientId, id]);
    const deleted = Array.isArray(rows[0]) ? (rows[0] as unknown[]) : rows;
    return deleted.length > 0;
  }

  /** The subscription's deliveries, newest first, each with its attempts (newest first, at most 20). */
  async deliveries(webhookId: number, limit: number): Promise<Delivery[]> {
    const rows: Row[] = await this.dataSource.query(
      `SELECT d.*, (
         SELECT coalesce(jsonb_agg(jsonb_build_object('attempt', a.attempt, 'attemptedAt', a.attempted_at, 'statusCode', a.status_code,
                  'durationMs', a.duration_ms, 'error', a.error, 'responseExcerpt', a.response_excerpt) ORDER BY a.attempt DESC), '[]'::jsonb)
           FROM (SELECT * FROM webhook_delivery_attempts WHERE delivery_id = d.id ORDER BY attempt DESC LIMIT 20) a
       ) AS attempt_list
       FROM webhook_deliveries d WHERE d.webhook_id = $1 ORDER BY d.created_at DESC, d.id LIMIT $2`,
      [webhookId, limit],
    );
    return rows.map(toDelivery);
  }

  /** Queues a signed `webhook.test` delivery (the relay is woken at commit); returns its id. */
  async queueTest(webhook: Webhook): Promise<{ id: string; eventId: string }> {
    const id = randomUUID();
    const eventId = randomUUID();
    const now = new Date();
    await this.dataSource.transaction(async (m) => {
      await m.query(
        `INSERT INTO webhook_deliveries (id, webhook_id, organization_id, event_id, event_type, body, event_at)
         VALUES ($1, $2, $3, $4, 'webhook.test', $5, $6)`,
        [id, webhook.id, webhook.organizationId, eventId, JSON.stringify(testPayload(webhook.id, now)), now],
      );
      await m.query(`SELECT pg_notify($1, '')`, [DELIVERY_CHANNEL]);
    });
    return { id, eventId };
  }
}

/**
 * Seals again, with the current sealing key, every secret and header value that is plain text
 * (stored before encryption) or sealed with another key: the rotation step between putting a new
 * key first in WEBHOOK_ENCRYPTION_KEYS and removing the old one. Returns how many subscriptions changed.
 */
export async function resealWebhookSecrets(dataSource: DataSource, box: WebhookSecretBox): Promise<number> {
  return dataSource.transaction(async (m) => {
    const rows: { id: string; secret: string; headers: Record<string, string> }[] = await m.query(`SELECT id, secret, headers FROM webhooks ORDER BY id FOR UPDATE`);
    let changed = 0;
    for (const r of rows) {
      const headers = Object.entries(r.headers ?? {});
      if (!box.needsResealing(r.secret) && headers.every(([, v]) => !box.needsResealing(v))) continue;
      const sealed = Object.fromEntries(headers.map(([name, v]) => [name, box.needsResealing(v) ? box.seal(box.open(v)) : v]));
      const secret = box.needsResealing(r.secret) ? box.seal(box.open(r.secret)) : r.secret;
      await m.query(`UPDATE webhooks SET secret = $2, headers = $3::jsonb WHERE id = $1`, [r.id, secret, JSON.stringify(sealed)]);
      changed++;
    }
    return changed;
  });
}

/** A repository outside Nest (the CLI, benchmarks, tests), configured from the environment like the service. */
export function webhooksRepositoryFor(dataSource: DataSource, env: NodeJS.ProcessEnv = process.env): WebhooksRepository {
  const config = sectionOf(loadConfig(env, [WEBHOOKS_CONFIG]), WEBHOOKS_CONFIG);
  return new WebhooksRepository(dataSource, new WebhookSecretBox(config), config);
}
