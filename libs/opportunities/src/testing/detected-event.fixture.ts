import type { OpportunityDetected, OpportunityEvent } from '../domain/opportunity.events';

/** For tests: an `opportunity.detected` event at `t0` (high severity, due 72 h later), with overrides. */
export function detectedEvent(t0: Date, overrides: Partial<OpportunityDetected['data']> = {}): OpportunityEvent {
  return {
    type: 'opportunity.detected',
    data: {
      id: 7,
      organizationId: 1,
      brandId: 2,
      type: 'sov_drop',
      severity: 'high',
      title: 'Share of voice fell on ChatGPT',
      description: null,
      fingerprint: 'fp-1',
      source: 'detector:sov',
      evidence: { drop: 0.12 },
      recurrenceOf: null,
      slaPolicy: 'default',
      dueAt: new Date(t0.getTime() + 72 * 3_600_000).toISOString(),
      detectedAt: t0.toISOString(),
      ...overrides,
    },
  };
}
