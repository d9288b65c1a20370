import type { OpportunityDetected } from '@libs/opportunities';
import { opportunityFactsOf, webhookEventsFor } from './opportunity-webhook-events';

const at = new Date('2025-01-01T00:00:00Z');
const detected: OpportunityDetected = {
  type: 'opportunity.detected',
  data: {
    id: 9, organizationId: 2, brandId: 3, type: 'sov_drop', severity: 'high', title: 'T', description: null, fingerprint: 'f', source: 'api',
    evidence: { a: 1 }, recurrenceOf: null, slaPolicy: 'default', dueAt: '2025-01-04T00:00:00.000Z', detectedAt: at.toISOString(),
  },
};
const facts = opportunityFactsOf(detected, 5);

describe('opportunity events → webhook events', () => {
  it('keeps the facts of the detection and the brand’s client', () => {
    expect(facts).toEqual({ id: 9, organizationId: 2, clientId: 5, brandId: 3, type: 'sov_drop', severity: 'high', title: 'T' });
  });

  it('a detection opens', () => {
    const [opened, ...rest] = webhookEventsFor(detected, { recordedAt: at, actor: 'key:1' }, facts);
    expect(rest).toEqual([]);
    expect(opened).toEqual({
      type: 'opportunity.opened',
      timestamp: at.toISOString(),
      data: {
        opportunityId: 9, organizationId: 2, brandId: 3, type: 'sov_drop', severity: 'high', title: 'T', status: 'detected', description: null,
        fingerprint: 'f', source: 'api', evidence: { a: 1 }, recurrenceOf: null, sla: { policy: 'default', dueAt: '2025-01-04T00:00:00.000Z' }, detectedAt: at.toISOString(),
      },
    });
  });

  it('a move to resolved raises transitioned and resolved; other moves only transitioned', () => {
    const move = webhookEventsFor({ type: 'opportunity.transitioned', data: { from: 'verifying', to: 'resolved', reason: null, owner: 'ana', at: at.toISOString() } }, { recordedAt: at, actor: 'key:1' }, facts);
    expect(move.map((p) => p.type)).toEqual(['opportunity.transitioned', 'opportunity.resolved']);
    expect(move[0].data).toMatchObject({ from: 'verifying', to: 'resolved', owner: 'ana', actor: 'key:1' });
    expect(move[1]).toEqual({ type: 'opportunity.resolved', timestamp: at.toISOString(), data: expect.objectContaining({ opportunityId: 9, to: 'resolved', resolvedAt: at.toISOString() }) });
    const triage = webhookEventsFor({ type: 'opportunity.transitioned', data: { from: 'detected', to: 'triaged', reason: 'r', owner: null, at: at.toISOString() } }, { recordedAt: at, actor: null }, facts);
    expect(triage.map((p) => p.type)).toEqual(['opportunity.transitioned']);
  });

  it('verifications complete and outcomes finalise', () => {
    const verified = webhookEventsFor({ type: 'opportunity.verification_recorded', data: { status: 'failed', details: { n: 1 }, checkedAt: 'x' } }, { recordedAt: at, actor: null }, facts);
    expect(verified).toEqual([{ type: 'verification.completed', timestamp: at.toISOString(), data: expect.objectContaining({ status: 'failed', details: { n: 1 }, checkedAt: 'x' }) }]);
    const outcome = { citationRateBefore: 0.1, citationRateAfter: 0.2, aiTrafficBefore: 1, aiTrafficAfter: 2, conversions: 3, revenue: 4, currency: 'USD', finalizedAt: 'y' };
    const finalized = webhookEventsFor({ type: 'opportunity.outcome_finalized', data: outcome }, { recordedAt: at, actor: null }, facts);
    expect(finalized).toEqual([{ type: 'outcome.finalized', timestamp: at.toISOString(), data: expect.objectContaining({ opportunityId: 9, outcome }) }]);
  });
});
