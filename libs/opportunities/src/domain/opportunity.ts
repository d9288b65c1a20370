import type { FinalOutcome, OpportunityEvent } from './opportunity.events';
import type { OpportunityType, Severity, Status } from './lifecycle';

/** The opportunity as its events have made it (the write model's state). */
export interface OpportunityState {
  id: number;
  organizationId: number;
  brandId: number;
  type: OpportunityType;
  severity: Severity;
  status: Status;
  title: string;
  description: string | null;
  fingerprint: string;
  source: string;
  evidence: Record<string, unknown>;
  owner: string | null;
  slaPolicy: string;
  dueAt: string;
  verification: { status: 'pending' | 'passed' | 'failed' | null; checkedAt: string | null; details: Record<string, unknown> | null };
  outcome: FinalOutcome | null;
  recurrenceOf: number | null;
  detectedAt: string;
  updatedAt: string;
  resolvedAt: string | null;
  /** The stream revision of the last event folded in (-1 before any). */
  version: number;
}

/** Folds one event into the state; the first event must be `opportunity.detected`. */
export function evolve(state: OpportunityState | null, event: OpportunityEvent): OpportunityState {
  if (event.type === 'opportunity.detected') {
    const d = event.data;
    return {
      id: d.id,
      organizationId: d.organizationId,
      brandId: d.brandId,
      type: d.type,
      severity: d.severity,
      status: 'detected',
      title: d.title,
      description: d.description,
      fingerprint: d.fingerprint,
      source: d.source,
      evidence: d.evidence,
      owner: null,
      slaPolicy: d.slaPolicy,
      dueAt: d.dueAt,
      verification: { status: null, checkedAt: null, details: null },
      outcome: null,
      recurrenceOf: d.recurrenceOf,
      detectedAt: d.detectedAt,
      updatedAt: d.detectedAt,
      resolvedAt: null,
      version: (state?.version ?? -1) + 1,
    };
  }
  if (!state) throw new Error(`${event.type} before opportunity.detected`);
  const next: OpportunityState = { ...state, version: state.version + 1 };
  switch (event.type) {
    case 'opportunity.transitioned':
      next.status = event.data.to;
      next.owner = event.data.owner ?? state.owner;
      next.updatedAt = event.data.at;
      if (event.data.to === 'resolved') next.resolvedAt = event.data.at;
      // Deploying a fix starts a verification that is pending until it is recorded.
      if (event.data.to === 'fix_deployed') next.verification = { status: 'pending', checkedAt: null, details: null };
      return next;
    case 'opportunity.verification_recorded':
      next.verification = { status: event.data.status, checkedAt: event.data.checkedAt, details: event.data.details };
      next.updatedAt = event.data.checkedAt;
      return next;
    case 'opportunity.outcome_finalized':
      // Outcomes finalised before mention rates and measurements were kept have them as null.
      next.outcome = { ...event.data, mentionRateBefore: event.data.mentionRateBefore ?? null, mentionRateAfter: event.data.mentionRateAfter ?? null, measured: event.data.measured ?? null };
      next.updatedAt = event.data.finalizedAt;
      return next;
  }
}

export function fold(events: readonly OpportunityEvent[]): OpportunityState | null {
  return events.reduce<OpportunityState | null>((s, e) => evolve(s, e), null);
}
