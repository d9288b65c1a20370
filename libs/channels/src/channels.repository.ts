import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { TenantScope } from '@libs/tenancy';
import type { ChannelKind } from './domain';

/** A channel as the API returns it: never its credentials, only whether it has some. */
export interface Channel {
  id: number;
  organizationId: number;
  clientId: number;
  kind: ChannelKind;
  name: string;
  brandId: number | null;
  propertyId: string | null;
  siteUrl: string | null;
  backfillDays: number;
  isActive: boolean;
  hasCredentials: boolean;
  /** The last day fully synced (the next sync starts after it); null before the first sync. */
  cursorDate: string | null;
  nextSyncAt: string | null;
  lastSyncAt: string | null;
  lastSyncStatus: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ChannelInput {
  clientId: number;
  kind: ChannelKind;
  name: string;
  brandId: number | null;
  propertyId: string | null;
  siteUrl: string | null;
  credentialsSealed: string | null;
  backfillDays: number;
  isActive: boolean;
}

export type ChannelChange = Partial<Pick<ChannelInput, 'name' | 'brandId' | 'propertyId' | 'siteUrl' | 'credentialsSealed' | 'backfillDays' | 'isActive'>>;

export interface ChannelSync {
  id: number;
  channelId: number;
  trigger: 'schedule' | 'manual' | 'import';
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  startDate: string | null;
  endDate: string | null;
  rows: number;
  attempts: number;
  error: string | null;
  queuedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  durationMs: number | null;
}

type Row = Record<string, unknown>;
/** The rows an UPDATE or DELETE … RETURNING gave (TypeORM's pg driver answers [rows, count] for them). */
const returned = (result: unknown[]): Row[] => (Array.isArray(result[0]) ? (result[0] as Row[]) : (result as Row[]));
const iso = (v: unknown) => (v === null || v === undefined ? null : (v as Date).toISOString());

const COLUMNS = `id, organization_id, client_id, kind, name, brand_id, property_id, site_url, backfill_days, is_active,
  credentials_sealed IS NOT NULL AS has_credentials, to_char(cursor_date, 'YYYY-MM-DD') AS cursor_date,
  next_sync_at, last_sync_at, last_sync_status, created_at, updated_at`;

function toChannel(r: Row): Channel {
  return {
    id: Number(r.id),
    organizationId: Number(r.organization_id),
    clientId: Number(r.client_id),
    kind: r.kind as ChannelKind,
    name: r.name as string,
    brandId: r.brand_id === null ? null : Number(r.brand_id),
    propertyId: (r.property_id as string | null) ?? null,
    siteUrl: (r.site_url as string | null) ?? null,
    backfillDays: Number(r.backfill_days),
    isActive: r.is_active as boolean,
    hasCredentials: r.has_credentials as boolean,
    cursorDate: (r.cursor_date as string | null) ?? null,
    nextSyncAt: iso(r.next_sync_at),
    lastSyncAt: iso(r.last_sync_at),
    lastSyncStatus: (r.last_sync_status as string | null) ?? null,
    createdAt: iso(r.created_at)!,
    updatedAt: iso(r.updated_at)!,
  };
}

const SYNC_COLUMNS = `id, channel_id, trigger, status, to_char(start_date, 'YYYY-MM-DD') AS start_date, to_char(end_date, 'YYYY-MM-DD') AS end_date,
  rows, attempts, error, queued_at, started_at, finished_at, duration_ms`;

function toSync(r: Row): ChannelSync {
  return {
    id: Number(r.id),
    channelId: Number(r.channel_id),
    trigger: r.trigger as ChannelSync['trigger'],
    status: r.status as ChannelSync['status'],
    startDate: (r.start_date as string | null) ?? null,
    endDate: (r.end_date as string | null) ?? null,
    rows: Number(r.rows),
    attempts: Number(r.attempts),
    error: (r.error as string | null) ?? null,
    queuedAt: iso(r.queued_at)!,
    startedAt: iso(r.started_at),
    finishedAt: iso(r.finished_at),
    durationMs: r.duration_ms === null ? null : Number(r.duration_ms),
  };
}

/** A channel's row with its sealed credentials: for the connectors only, never for a response. */
export interface ChannelForSync extends Channel {
  credentialsSealed: string | null;
}

/** Channels of clients, their syncs, and the sync cursor. Every read filters by the caller's organisation (and client). */
@Injectable()
export class ChannelsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async create(organizationId: number, input: ChannelInput): Promise<Channel> {
    const [row]: Row[] = await this.dataSource.query(
      `INSERT INTO channels (organization_id, client_id, kind, name, brand_id, property_id, site_url, credentials_sealed, backfill_days, is_active, next_sync_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, CASE WHEN $3 = 'import' THEN NULL ELSE now() END)
       RETURNING ${COLUMNS}`,
      [organizationId, input.clientId, input.kind, input.name, input.brandId, input.propertyId, input.siteUrl, input.credentialsSealed, input.backfillDays, input.isActive],
    );
    return toChannel(row);
  }

  /**
   * The built-in ai_referrals channel of every client (or of one) whose brands have AI referral
   * visits (agent analytics' `ai_referral_daily`), made where missing; returns how many were made.
   */
  async ensureAiReferrals(clientId: number | null = null): Promise<number> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO channels (organization_id, client_id, kind, name, next_sync_at)
       SELECT DISTINCT b.organization_id, b.client_id, 'ai_referrals', 'AI referrals', now()
         FROM brands b WHERE b.client_id IS NOT NULL AND ($1::bigint IS NULL OR b.client_id = $1)
          AND EXISTS (SELECT 1 FROM ai_referral_daily r WHERE r.brand_id = b.id AND r.organization_id = b.organization_id)
       ON CONFLICT (client_id) WHERE kind = 'ai_referrals' DO NOTHING
       RETURNING id`,
      [clientId],
    );
    return rows.length;
  }

  async list(scope: TenantScope, clientId: number): Promise<Channel[]> {
    const rows: Row[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM channels WHERE organization_id = $1 AND client_id = $2 AND ($3::bigint IS NULL OR client_id = $3) ORDER BY id`,
      [scope.organizationId, clientId, scope.clientId],
    );
    return rows.map(toChannel);
  }

  /** The channel when the caller may see it, else null (another tenant's channel is a 404). */
  async find(scope: TenantScope, id: number): Promise<Channel | null> {
    const rows: Row[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM channels WHERE id = $1 AND organization_id = $2 AND ($3::bigint IS NULL OR client_id = $3)`,
      [id, scope.organizationId, scope.clientId],
    );
    return rows.length ? toChannel(rows[0]) : null;
  }

  async update(scope: TenantScope, id: number, change: ChannelChange): Promise<Channel | null> {
    const columns: Record<keyof ChannelChange, string> = {
      name: 'name',
      brandId: 'brand_id',
      propertyId: 'property_id',
      siteUrl: 'site_url',
      credentialsSealed: 'credentials_sealed',
      backfillDays: 'backfill_days',
      isActive: 'is_active',
    };
    const sets: string[] = [];
    const params: unknown[] = [id, scope.organizationId, scope.clientId];
    for (const [field, value] of Object.entries(change)) {
      if (value === undefined) continue;
      params.push(value);
      sets.push(`${columns[field as keyof ChannelChange]} = $${params.length}`);
    }
    // A new source (property, site, brand) starts over: the cursor is cleared, so the next sync backfills.
    if (change.propertyId !== undefined || change.siteUrl !== undefined) sets.push('cursor_date = NULL');
    sets.push('updated_at = now()');
    const rows = returned(
      await this.dataSource.query(`UPDATE channels SET ${sets.join(', ')} WHERE id = $1 AND organization_id = $2 AND ($3::bigint IS NULL OR client_id = $3) RETURNING ${COLUMNS}`, params),
    );
    return rows.length ? toChannel(rows[0]) : null;
  }

  async delete(scope: TenantScope, id: number): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `DELETE FROM channels WHERE id = $1 AND organization_id = $2 AND ($3::bigint IS NULL OR client_id = $3) RETURNING id`,
      [id, scope.organizationId, scope.clientId],
    );
    return returned(rows).length > 0;
  }

  async forSync(id: number): Promise<ChannelForSync | null> {
    const rows: Row[] = await this.dataSource.query(`SELECT ${COLUMNS}, credentials_sealed FROM channels WHERE id = $1`, [id]);
    return rows.length ? { ...toChannel(rows[0]), credentialsSealed: (rows[0].credentials_sealed as string | null) ?? null } : null;
  }

  /** Moves the cursor inside the transaction that wrote the days up to it (a crash resumes after the last written window). */
  async moveCursor(m: EntityManager, channelId: number, day: string): Promise<void> {
    await m.query(`UPDATE channels SET cursor_date = greatest(cursor_date, $2::date) WHERE id = $1`, [channelId, day]);
  }

  async queueSync(organizationId: number, channelId: number, trigger: ChannelSync['trigger']): Promise<ChannelSync> {
    const [row]: Row[] = await this.dataSource.query(
      `INSERT INTO channel_syncs (organization_id, channel_id, trigger, status) VALUES ($1, $2, $3, 'queued') RETURNING ${SYNC_COLUMNS}`,
      [organizationId, channelId, trigger],
    );
    return toSync(row);
  }

  /** Marks a queued sync running (false when it is not queued any more: another worker has it, or it ended). */
  async startSync(syncId: number): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `UPDATE channel_syncs SET status = 'running', started_at = now() WHERE id = $1 AND status IN ('queued', 'running') RETURNING id`,
      [syncId],
    );
    return returned(rows).length > 0;
  }

  async finishSync(
    syncId: number,
    outcome: { status: 'succeeded' | 'failed'; rows: number; attempts: number; error: string | null; startDate: string | null; endDate: string | null },
  ): Promise<void> {
    await this.dataSource.query(
      `WITH s AS (
         UPDATE channel_syncs SET status = $2, rows = $3, attempts = $4, error = $5, start_date = $6, end_date = $7, finished_at = now(),
           duration_ms = round(extract(epoch FROM now() - coalesce(started_at, queued_at)) * 1000)
         WHERE id = $1 RETURNING channel_id, finished_at, status)
       UPDATE channels c SET last_sync_at = s.finished_at, last_sync_status = s.status FROM s WHERE c.id = s.channel_id`,
      [syncId, outcome.status, outcome.rows, outcome.attempts, outcome.error, outcome.startDate, outcome.endDate],
    );
  }

  /** Records a finished import as a sync of trigger `import`, inside the import's transaction. */
  async recordImport(m: EntityManager, channel: Channel, rows: number, window: { start: string; end: string } | null, startedAt: Date): Promise<ChannelSync> {
    const [row]: Row[] = await m.query(
      `INSERT INTO channel_syncs (organization_id, channel_id, trigger, status, start_date, end_date, rows, attempts, queued_at, started_at, finished_at, duration_ms)
       VALUES ($1, $2, 'import', 'succeeded', $3, $4, $5, 1, $6, $6, now(), round(extract(epoch FROM now() - $6::timestamptz) * 1000))
       RETURNING ${SYNC_COLUMNS}`,
      [channel.organizationId, channel.id, window?.start ?? null, window?.end ?? null, rows, startedAt.toISOString()],
    );
    await m.query(`UPDATE channels SET last_sync_at = now(), last_sync_status = 'succeeded' WHERE id = $1`, [channel.id]);
    return toSync(row);
  }

  async syncs(channelId: number, limit: number, offset: number, order: 'asc' | 'desc'): Promise<{ rows: ChannelSync[]; total: number }> {
    const rows: Row[] = await this.dataSource.query(`SELECT ${SYNC_COLUMNS}, count(*) OVER () AS total FROM channel_syncs WHERE channel_id = $1 ORDER BY id ${order === 'asc' ? 'ASC' : 'DESC'} LIMIT $2 OFFSET $3`, [
      channelId,
      limit,
      offset,
    ]);
    const total = rows.length ? Number(rows[0].total) : Number((await this.dataSource.query(`SELECT count(*) AS n FROM channel_syncs WHERE channel_id = $1`, [channelId]))[0].n);
    return { rows: rows.map(toSync), total };
  }

  /**
   * Claims the channels whose daily sync is due: moves each one's next sync a day on in one
   * statement, which only one worker process wins. Returns what it claimed.
   */
  async claimDue(now: Date, limit = 100): Promise<{ id: number; organizationId: number }[]> {
    const rows: Row[] = await this.dataSource.query(
      `UPDATE channels SET next_sync_at = $1::timestamptz + interval '1 day'
        WHERE id IN (SELECT id FROM channels WHERE is_active AND kind <> 'import' AND next_sync_at <= $1::timestamptz ORDER BY next_sync_at LIMIT $2 FOR UPDATE SKIP LOCKED)
        RETURNING id, organization_id`,
      [now.toISOString(), limit],
    );
    return returned(rows).map((r) => ({ id: Number(r.id), organizationId: Number(r.organization_id) }));
  }
}
