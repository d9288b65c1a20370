import { SEVERITIES, isTerminal } from '../domain/lifecycle';
import type { OpportunityState } from '../domain/opportunity';
import { slaAt, type SlaState } from '../domain/sla-policy';

/** A row of the `opportunities` read model: the folded state and the brand's client (for client-bound keys). */
export interface OpportunityRow {
  state: OpportunityState;
  clientId: number | null;
}

/** Columns of `opportunities` with their SQL types (for jsonb_to_recordset). */
export const OPPORTUNITY_ROW_COLUMNS: readonly (readonly [string, string])[] = [
  ['id', 'bigint'],
  ['organization_id', 'bigint'],
  ['brand_id', 'bigint'],
  ['client_id', 'bigint'],
  ['type', 'text'],
  ['severity', 'text'],
  ['severity_rank', 'smallint'],
  ['status', 'text'],
  ['terminal', 'boolean'],
  ['title', 'text'],
  ['description', 'text'],
  ['fingerprint', 'text'],
  ['source', 'text'],
  ['evidence', 'jsonb'],
  ['owner', 'text'],
  ['sla_policy', 'text'],
  ['due_at', 'timestamptz'],
  ['verification_status', 'text'],
  ['verification_checked_at', 'timestamptz'],
  ['verification_details', 'jsonb'],
  ['outcome', 'jsonb'],
  ['recurrence_of', 'bigint'],
  ['detected_at', 'timestamptz'],
  ['updated_at', 'timestamptz'],
  ['resolved_at', 'timestamptz'],
  ['version', 'integer'],
  ['document', 'text'],
];

/** The columns `opportunityRowFromSql` reads (all but the stored document), for named-column SELECTs. */
export const OPPORTUNITY_STATE_COLUMNS = OPPORTUNITY_ROW_COLUMNS.map(([c]) => c)
  .filter((c) => c !== 'document')
  .join(', ');

export function opportunityRowToSql({ state: s, clientId }: OpportunityRow): Record<string, unknown> {
  return {
    id: s.id,
    organization_id: s.organizationId,
    brand_id: s.brandId,
    client_id: clientId,
    type: s.type,
    severity: s.severity,
    severity_rank: SEVERITIES.indexOf(s.severity),
    status: s.status,
    terminal: isTerminal(s.status),
    title: s.title,
    description: s.description,
    fingerprint: s.fingerprint,
    source: s.source,
    evidence: s.evidence,
    owner: s.owner,
    sla_policy: s.slaPolicy,
    due_at: s.dueAt,
    verification_status: s.verification.status,
    verification_checked_at: s.verification.checkedAt,
    verification_details: s.verification.details,
    outcome: s.outcome,
    recurrence_of: s.recurrenceOf,
    detected_at: s.detectedAt,
    updated_at: s.updatedAt,
    resolved_at: s.resolvedAt,
    version: s.version,
    document: recordDocument(s),
  };
}

const iso = (v: unknown): string | null => (v === null || v === undefined ? null : (v as Date).toISOString());

export function opportunityRowFromSql(r: Record<string, unknown>): OpportunityRow {
  return {
    clientId: r.client_id === null ? null : Number(r.client_id),
    state: {
      id: Number(r.id),
      organizationId: Number(r.organization_id),
      brandId: Number(r.brand_id),
      type: r.type as OpportunityState['type'],
      severity: r.severity as OpportunityState['severity'],
      status: r.status as OpportunityState['status'],
      title: r.title as string,
      description: r.description as string | null,
      fingerprint: r.fingerprint as string,
      source: r.source as string,
      evidence: r.evidence as Record<string, unknown>,
      owner: r.owner as string | null,
      slaPolicy: r.sla_policy as string,
      dueAt: iso(r.due_at)!,
      verification: {
        status: r.verification_status as OpportunityState['verification']['status'],
        checkedAt: iso(r.verification_checked_at),
        details: r.verification_details as Record<string, unknown> | null,
      },
      outcome: r.outcome as OpportunityState['outcome'],
      recurrenceOf: r.recurrence_of === null ? null : Number(r.recurrence_of),
      detectedAt: iso(r.detected_at)!,
      updatedAt: iso(r.updated_at)!,
      resolvedAt: iso(r.resolved_at),
      version: Number(r.version),
    },
  };
}

/**
 * The opportunity record the API returns (DESIGN §3): the folded state with the SLA judged as of
 * `now` in place of the stored policy and due time. `sla` comes last, so that the record's JSON
 * is a stored prefix (`recordDocument`) plus a tail that depends only on whether it is breached.
 */
export type OpportunityRecord = Omit<OpportunityState, 'slaPolicy' | 'dueAt'> & {
  sla: SlaState;
};

function recordFields(s: OpportunityState): Omit<OpportunityRecord, 'sla'> {
  return {
    id: s.id,
    organizationId: s.organizationId,
    brandId: s.brandId,
    type: s.type,
    severity: s.severity,
    status: s.status,
    title: s.title,
    description: s.description,
    fingerprint: s.fingerprint,
    source: s.source,
    evidence: s.evidence,
    owner: s.owner,
    verification: s.verification,
    outcome: s.outcome,
    recurrenceOf: s.recurrenceOf,
    detectedAt: s.detectedAt,
    updatedAt: s.updatedAt,
    resolvedAt: s.resolvedAt,
    version: s.version,
  };
}

export function toRecord(s: OpportunityState, now: Date): OpportunityRecord {
  return { ...recordFields(s), sla: slaAt(s.slaPolicy, new Date(s.dueAt), s.status, now) };
}

/**
 * The record's JSON up to its time-dependent end: everything but `sla.breached` and
 * `sla.breachedAt` (and the two closing braces). The list projection stores it per row, so a read
 * sends stored text instead of parsing columns and serialising objects.
 */
export function recordDocument(s: OpportunityState): string {
  const json = JSON.stringify({ ...recordFields(s), sla: { policy: s.slaPolicy, dueAt: new Date(s.dueAt).toISOString() } });
  return json.slice(0, -2);
}

const DUE_AT_KEY = '"dueAt":';

/** The record's JSON from its stored document: equal to `JSON.stringify(toRecord(state, now))` when `breached` is judged at `now`. */
export function completeRecordDocument(document: string, breached: boolean): string {
  if (!breached) return `${document},"breached":false,"breachedAt":null}}`;
  return `${document},"breached":true,"breachedAt":${document.slice(document.lastIndexOf(DUE_AT_KEY) + DUE_AT_KEY.length)}}}`;
}
