import { columnList, rowReader, tableShape } from '@libs/projection-engine';
import { SEVERITIES, isTerminal } from '../domain/lifecycle';
import type { OpportunityState } from '../domain/opportunity';
import { slaAt, type SlaState } from '../domain/sla-policy';

/** A row of the `opportunities` read model: the folded state and the brand's client (for client-bound keys). */
export interface OpportunityRow {
  state: OpportunityState;
  clientId: number | null;
}

/** A row of the `opportunities` table as the projector writes it (and `opportunityRowFromSql` reads it back). */
export interface OpportunityTableRow {
  id: number;
  organization_id: number;
  brand_id: number;
  client_id: number | null;
  type: OpportunityState['type'];
  severity: OpportunityState['severity'];
  severity_rank: number;
  status: OpportunityState['status'];
  terminal: boolean;
  title: string;
  description: string | null;
  fingerprint: string;
  source: string;
  evidence: Record<string, unknown>;
  owner: string | null;
  sla_policy: string;
  due_at: string;
  verification_status: OpportunityState['verification']['status'];
  verification_checked_at: string | null;
  verification_details: Record<string, unknown> | null;
  outcome: OpportunityState['outcome'];
  recurrence_of: number | null;
  detected_at: string;
  updated_at: string;
  resolved_at: string | null;
  version: number;
  document: string;
}

/**
 * `opportunities` (projections/opportunities builds it): one row per opportunity, its folded
 * state in columns and its record's JSON (`document`, what the list and the single read send).
 */
export const OPPORTUNITIES = tableShape<OpportunityTableRow>({
  table: 'opportunities',
  columns: {
    id: 'bigint',
    organization_id: 'bigint',
    brand_id: 'bigint',
    client_id: 'bigint',
    type: 'text',
    severity: 'text',
    severity_rank: 'smallint',
    status: 'text',
    terminal: 'boolean',
    title: 'text',
    description: 'text',
    fingerprint: 'text',
    source: 'text',
    evidence: 'jsonb',
    owner: 'text',
    sla_policy: 'text',
    due_at: 'timestamptz',
    verification_status: 'text',
    verification_checked_at: 'timestamptz',
    verification_details: 'jsonb',
    outcome: 'jsonb',
    recurrence_of: 'bigint',
    detected_at: 'timestamptz',
    updated_at: 'timestamptz',
    resolved_at: 'timestamptz',
    version: 'integer',
    document: 'text',
  },
  key: ['id'],
});

/** The columns `opportunityRowFromSql` reads (all but the stored document), for named-column SELECTs. */
const STATE_COLUMNS = (Object.keys(OPPORTUNITIES.columns) as (keyof OpportunityTableRow)[]).filter((c): c is Exclude<keyof OpportunityTableRow, 'document'> => c !== 'document');
export const OPPORTUNITY_STATE_COLUMNS = columnList(OPPORTUNITIES, STATE_COLUMNS);
const stateRow = rowReader(OPPORTUNITIES, STATE_COLUMNS);

export function opportunityRowToSql({ state: s, clientId }: OpportunityRow): OpportunityTableRow {
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

/** The row read with OPPORTUNITY_STATE_COLUMNS, back to the folded state (the mapping's conversions from the table's shape). */
export function opportunityRowFromSql(r: Record<string, unknown>): OpportunityRow {
  const row = stateRow(r);
  return {
    clientId: row.client_id,
    state: {
      id: row.id,
      organizationId: row.organization_id,
      brandId: row.brand_id,
      type: row.type,
      severity: row.severity,
      status: row.status,
      title: row.title,
      description: row.description,
      fingerprint: row.fingerprint,
      source: row.source,
      evidence: row.evidence,
      owner: row.owner,
      slaPolicy: row.sla_policy,
      dueAt: row.due_at,
      verification: { status: row.verification_status, checkedAt: row.verification_checked_at, details: row.verification_details },
      outcome: row.outcome,
      recurrenceOf: row.recurrence_of,
      detectedAt: row.detected_at,
      updatedAt: row.updated_at,
      resolvedAt: row.resolved_at,
      version: row.version,
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
