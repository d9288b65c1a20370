import { rowReader, tableShape } from '@libs/projection-engine';
import type { ChangeType, EntityState, Severity } from '../domain';

/** A row of `answer_changes` as the projector writes it. */
export interface ChangeRow {
  id: string;
  organization_id: number;
  client_id: number | null;
  brand_id: number;
  result_id: string;
  previous_result_id: string;
  provider: string;
  prompt_id: number | null;
  query: string;
  /** The market of the two answers compared (null: asked without one). */
  country: string | null;
  language: string | null;
  change_type: string;
  severity: string;
  severity_rank: number;
  entity_id: string;
  entity_name: string;
  entity_kind: string;
  domain: string | null;
  before: EntityState;
  after: EntityState;
  asked_at: string;
  previous_asked_at: string;
  day: string;
}

/** `answer_changes` (projections/citations builds it): one detected change between two answers. */
export const ANSWER_CHANGES = tableShape<ChangeRow>({
  table: 'answer_changes',
  columns: {
    id: 'text',
    organization_id: 'bigint',
    client_id: 'bigint',
    brand_id: 'bigint',
    result_id: 'text',
    previous_result_id: 'text',
    provider: 'text',
    prompt_id: 'bigint',
    query: 'text',
    country: 'text',
    language: 'text',
    change_type: 'text',
    severity: 'text',
    severity_rank: 'smallint',
    entity_id: 'text',
    entity_name: 'text',
    entity_kind: 'text',
    domain: 'text',
    before: 'jsonb',
    after: 'jsonb',
    asked_at: 'timestamptz',
    previous_asked_at: 'timestamptz',
    day: 'date',
  },
  key: ['id'],
});

/** A row of `answer_changes` as read (every column of the shape), as the projector wrote it. */
export const changeRowFromSql = rowReader(ANSWER_CHANGES);

/** A detected change as the API returns it (GET /changes, and `data` of the `change.detected` webhook). */
export interface ChangeRecord {
  id: string;
  brandId: number;
  changeType: ChangeType;
  severity: Severity;
  provider: string;
  prompt: { id: number | null; query: string };
  entity: { id: string; name: string; kind: 'brand' | 'competitor' };
  domain: string | null;
  before: EntityState;
  after: EntityState;
  previousAnswer: { id: string; askedAt: string };
  answer: { id: string; askedAt: string };
  detectedAt: string;
}

const RANKS: Record<Severity, number> = { low: 1, medium: 2, high: 3 };
export const severityRank = (s: Severity): number => RANKS[s];

const iso = (v: string | Date) => (v instanceof Date ? v.toISOString() : new Date(v).toISOString());
const num = (v: number | string | null) => (v === null ? null : Number(v));

/** The API record of a change row (as written, or as read back: bigint and timestamp columns come back as strings and Dates). */
export function changeRecord(r: ChangeRow): ChangeRecord {
  return {
    id: r.id,
    brandId: Number(r.brand_id),
    changeType: r.change_type as ChangeType,
    severity: r.severity as Severity,
    provider: r.provider,
    prompt: { id: num(r.prompt_id), query: r.query },
    entity: { id: r.entity_id, name: r.entity_name, kind: r.entity_kind as 'brand' | 'competitor' },
    domain: r.domain,
    before: r.before,
    after: r.after,
    previousAnswer: { id: r.previous_result_id, askedAt: iso(r.previous_asked_at) },
    answer: { id: r.result_id, askedAt: iso(r.asked_at) },
    detectedAt: iso(r.asked_at),
  };
}
