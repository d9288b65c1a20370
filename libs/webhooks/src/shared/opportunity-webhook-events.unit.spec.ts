import { evolve, toRecord, type OpportunityDetected, type OpportunityEvent, type OpportunityState } from '@libs/opportunities';
import { webhookEventsFor } from './opportunity-webhook-events';

const at = new Date('2025-01-01T00:00:00Z');
const later = new Date('2025-01-05T00:00:00Z'); // past the SLA's due time
const detected: OpportunityDetected = {
  type: 'opportunity.detected',
  data: {
    id: 9, organizationId: 2, brandId: 3, type: 'sov_drop', severity: 'high', title: 'T', description: null, fingerprint: 'f', source: 'api',
    evidence: { a: 1 }, recurrenceOf: null, slaPolicy: 'default', dueAt: '2025-01-04T00:00:00.000Z', detectedAt: at.toISOString(),
  },
};
const opened = evolve(null, detected);
const after = (state: OpportunityState, event: OpportunityEvent) => ({ event, state: evolve(state, event) });

describe('opportunity events → webhook events', () => {
  it('a detection opens, carrying the record as GET answers it at that revision', () => {
    const [payload, ...rest] = webhookEventsFor(detected, { recordedAt: at, actor: 'key:1' }, opened);
    expect(rest).toEqual([]);
    expect(payload).toEqual({ type: 'opportunity.opened', timestamp: at.toISOString(), data: toRecord(opened, at) });
    expect(payload.data).toMatchObject({ id: 9, status: 'detected', version: 0, sla: { policy: 'default', dueAt: '2025-01-04T00:00:00.000Z', breached: false, breachedAt: null } });
  });

  it('a move carries the record after it and the change; to resolved raises transitioned and resolved', () => {
    const triaged = after(opened, { type: 'opportunity.transitioned', data: { from: 'detected', to: 'triaged', reason: 'r', owner: null, at: later.toISOString() } });
    const [move, ...none] = webhookEventsFor(triaged.event, { recordedAt: later, actor: null }, triaged.state);
    expect(none).toEqual([]);
    expect(move.data).toEqual({ ...toRecord(triaged.state, later), change: { from: 'detected', to: 'triaged', reason: 'r', actor: null, at: later.toISOString() } });
    expect(move.data).toMatchObject({ status: 'triaged', version: 1, sla: { breached: true, breachedAt: '2025-01-04T00:00:00.000Z' } });

    const resolved = after(triaged.state, { type: 'opportunity.transitioned', data: { from: 'triaged', to: 'resolved', reason: null, owner: 'ana', at: later.toISOString() } });
    const both = webhookEventsFor(resolved.event, { recordedAt: later, actor: 'key:1' }, resolved.state);
    expect(both.map((p) => p.type)).toEqual(['opportunity.transitioned', 'opportunity.resolved']);
    expect(both[1].data).toEqual(both[0].data);
    expect(both[1].data).toMatchObject({ status: 'resolved', owner: 'ana', resolvedAt: later.toISOString(), change: { to: 'resolved', actor: 'key:1' } });
  });

  it('verifications and outcomes carry the opportunity and their record', () => {
    const verified = after(opened, { type: 'opportunity.verification_recorded', data: { status: 'failed', details: { n: 1 }, checkedAt: at.toISOString() } });
    expect(webhookEventsFor(verified.event, { recordedAt: at, actor: null }, verified.state)).toEqual([
      { type: 'verification.completed', timestamp: at.toISOString(), data: { opportunity: toRecord(verified.state, at), verification: { status: 'failed', details: { n: 1 }, checkedAt: at.toISOString() } } },
    ]);
    const outcome = { citationRateBefore: 0.1, citationRateAfter: 0.2, aiTrafficBefore: 1, aiTrafficAfter: 2, conversions: 3, revenue: 4, currency: 'USD', finalizedAt: at.toISOString() };
    const finalized = after(opened, { type: 'opportunity.outcome_finalized', data: outcome });
    expect(webhookEventsFor(finalized.event, { recordedAt: at, actor: null }, finalized.state)).toEqual([
      // An outcome recorded without mention rates and measurement (before issue 19) reads them as null.
      { type: 'outcome.finalized', timestamp: at.toISOString(), data: { opportunity: toRecord(finalized.state, at), outcome: { ...outcome, mentionRateBefore: null, mentionRateAfter: null, measured: null } } },
    ]);
  });
});
