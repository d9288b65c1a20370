import type { OpportunityType, Severity, Status } from './lifecycle';

/** The opportunity's events (stream `opportunity-<id>`). Dates are ISO strings. */
export interface OpportunityDetected {
  type: 'opportunity.detected';
  data: {
    id: number;
    organizationId: number;
    brandId: number;
    type: OpportunityType;
    severity: Severity;
    title: string;
    description: string | null;
    fingerprint: string;
    source: string;
    evidence: Record<string, unknown>;
    recurrenceOf: number | null;
    slaPolicy: string;
    dueAt: string;
    detectedAt: string;
  };
}

export interface OpportunityTransitioned {
  type: 'opportunity.transitioned';
  data: { from: Status; to: Status; reason: string | null; owner: string | null; at: string };
}

export interface VerificationRecorded {
  type: 'opportunity.verification_recorded';
  data: { status: 'passed' | 'failed'; details: Record<string, unknown>; checkedAt: string };
}

/**
 * The measured business impact of a resolved opportunity (the currency defaults to USD when a
 * command omits it). A figure without data is null, never invented (e.g. the money figures while
 * the brand has no channel data); `measured` says how each figure was measured (n, intervals, windows).
 */
export interface OutcomeFigures {
  citationRateBefore: number | null;
  citationRateAfter: number | null;
  aiTrafficBefore: number | null;
  aiTrafficAfter: number | null;
  conversions: number | null;
  revenue: number | null;
  currency?: string;
  mentionRateBefore?: number | null;
  mentionRateAfter?: number | null;
  measured?: Record<string, unknown> | null;
}

type MeasuredExtras = 'mentionRateBefore' | 'mentionRateAfter' | 'measured';

export interface OutcomeFinalized {
  type: 'opportunity.outcome_finalized';
  /** Outcomes finalised before mention rates and measurements were kept lack them (read as null). */
  data: Required<Omit<OutcomeFigures, MeasuredExtras>> & Pick<OutcomeFigures, MeasuredExtras> & { finalizedAt: string };
}

/** An opportunity's final outcome as its state and records show it (every figure present, null where unmeasured). */
export type FinalOutcome = Required<OutcomeFigures> & { finalizedAt: string };

export type OpportunityEvent = OpportunityDetected | OpportunityTransitioned | VerificationRecorded | OutcomeFinalized;
export type OpportunityEventType = OpportunityEvent['type'];

export const OPPORTUNITY_EVENT_TYPES: readonly OpportunityEventType[] = [
  'opportunity.detected',
  'opportunity.transitioned',
  'opportunity.verification_recorded',
  'opportunity.outcome_finalized',
];

export const streamOf = (id: number) => `opportunity-${id}`;
