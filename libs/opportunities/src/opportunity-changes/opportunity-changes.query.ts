import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Principal } from '@libs/auth';
import { poolOf, preparedQuery } from '@libs/sql';
import type { OpportunityEventDto } from '../opportunity.dto';
import { OpportunityRepository } from '../opportunity.repository';
import { opportunityEventRecord } from '../read-model/opportunity-event';

/** An event of an opportunity's stream, as recorded in the event store, with its opportunity. */
export interface OpportunityChange extends OpportunityEventDto {
  opportunityId: number;
  brandId: number;
  /** When it happened: the time the event carries (detectedAt, at, checkedAt, finalizedAt), else when it was recorded. */
  occurredAt: string;
}

/** The time an opportunity event says it happened (imports and the demo record history after the fact). */
export function occurredAt(data: Record<string, unknown>, recordedAt: Date): Date {
  const at = data.detectedAt ?? data.at ?? data.checkedAt ?? data.finalizedAt;
  const parsed = typeof at === 'string' ? new Date(at) : null;
  return parsed && !Number.isNaN(parsed.getTime()) ? parsed : recordedAt;
}

export interface OpportunityChangesResult {
  /** Events that happened in [from, to), oldest first. */
  events: OpportunityChange[];
  /** Streams read (opportunities updated since `from`, at most `maxStreams`). */
  streams: number;
  /** True when more opportunities were updated since `from` than were read. */
  truncated: boolean;
}

/**
 * What happened to the caller's opportunities between two instants, from their streams in the
 * event store (detections, moves, verifications, outcomes as recorded, never recomputed), by the
 * time each event says it happened. The projection only says which streams to read: those of
 * opportunities updated (by that time) at or after `from` and detected before `to`, the most
 * recently updated first.
 */
@Injectable()
export class OpportunityChanges {
  constructor(
    private readonly dataSource: DataSource,
    private readonly repository: OpportunityRepository,
  ) {}

  async between(p: Principal, q: { from: Date; to: Date; brandId?: number; maxStreams: number }): Promise<OpportunityChangesResult> {
    const rows = await preparedQuery<{ id: string; brand_id: string }>(
      poolOf(this.dataSource),
      `SELECT id, brand_id FROM opportunities
        WHERE organization_id = $1 AND ($2::bigint IS NULL OR client_id = $2) AND ($3::bigint IS NULL OR brand_id = $3)
          AND updated_at >= $4 AND detected_at < $5
        ORDER BY updated_at DESC, id DESC LIMIT $6`,
      [p.organizationId, p.clientId, q.brandId ?? null, q.from, q.to, q.maxStreams + 1],
    );
    const read = rows.slice(0, q.maxStreams);
    const histories = await Promise.all(read.map(async (r) => ({ id: Number(r.id), brandId: Number(r.brand_id), events: await this.repository.history(Number(r.id)) })));
    const events: OpportunityChange[] = [];
    for (const h of histories) {
      for (const e of h.events) {
        const at = occurredAt(e.data, e.recordedAt);
        if (at < q.from || at >= q.to) continue;
        events.push({ opportunityId: h.id, brandId: h.brandId, ...opportunityEventRecord(e), occurredAt: at.toISOString() });
      }
    }
    events.sort((a, b) => a.occurredAt.localeCompare(b.occurredAt) || a.opportunityId - b.opportunityId || a.position - b.position);
    return { events, streams: read.length, truncated: rows.length > q.maxStreams };
  }
}
