import { CHANGE_EXAMPLE } from '@libs/citations';
import { evolve, type OpportunityEvent, type OpportunityState } from '@libs/opportunities';
import { testPayload, type WebhookEventType, type WebhookPayload } from '../domain';
import { webhookEventsFor } from './opportunity-webhook-events';

const at = (iso: string) => new Date(iso);

/** One opportunity's life, as the examples tell it. */
const LIFE: { event: OpportunityEvent; recordedAt: Date; actor: string }[] = [
  {
    recordedAt: at('2025-11-20T09:15:02.114Z'),
    actor: 'detector:citations',
    event: {
      type: 'opportunity.detected',
      data: {
        id: 4821, organizationId: 12, brandId: 7, type: 'competitor_gap', severity: 'high', title: 'Competitor cited on pricing answers', description: null,
        fingerprint: 'competitor_gap:7:pricing', source: 'detector:citations', evidence: { competitor: 'Globex', prompts: 10, citedForCompetitor: 7 },
        recurrenceOf: null, slaPolicy: 'default', dueAt: '2025-11-23T09:15:02.114Z', detectedAt: '2025-11-20T09:15:02.114Z',
      },
    },
  },
  { recordedAt: at('2025-11-21T10:02:45.900Z'), actor: 'key:31', event: { type: 'opportunity.transitioned', data: { from: 'detected', to: 'assigned', reason: 'Pricing page owner', owner: 'ana', at: '2025-11-21T10:02:45.900Z' } } },
  { recordedAt: at('2025-11-24T11:30:00.000Z'), actor: 'key:31', event: { type: 'opportunity.transitioned', data: { from: 'assigned', to: 'in_progress', reason: null, owner: null, at: '2025-11-24T11:30:00.000Z' } } },
  { recordedAt: at('2025-11-28T15:10:00.000Z'), actor: 'key:31', event: { type: 'opportunity.transitioned', data: { from: 'in_progress', to: 'fix_deployed', reason: 'Comparison table added', owner: null, at: '2025-11-28T15:10:00.000Z' } } },
  { recordedAt: at('2025-11-28T15:10:05.000Z'), actor: 'service:verifier', event: { type: 'opportunity.transitioned', data: { from: 'fix_deployed', to: 'verifying', reason: null, owner: null, at: '2025-11-28T15:10:05.000Z' } } },
  { recordedAt: at('2025-12-02T16:38:54.020Z'), actor: 'service:verifier', event: { type: 'opportunity.verification_recorded', data: { status: 'passed', details: { promptsChecked: 10, cited: 9 }, checkedAt: '2025-12-02T16:38:54.020Z' } } },
  { recordedAt: at('2025-12-02T16:40:11.508Z'), actor: 'key:31', event: { type: 'opportunity.transitioned', data: { from: 'verifying', to: 'resolved', reason: 'Cited again on 9 of 10 prompts', owner: null, at: '2025-12-02T16:40:11.508Z' } } },
  {
    recordedAt: at('2026-01-05T08:00:00.000Z'),
    actor: 'service:outcomes',
    event: {
      type: 'opportunity.outcome_finalized',
      data: { citationRateBefore: 0.12, citationRateAfter: 0.41, aiTrafficBefore: 310, aiTrafficAfter: 795, conversions: 23, revenue: 4140, currency: 'USD', finalizedAt: '2026-01-05T08:00:00.000Z' },
    },
  },
];

/** An example payload of each event type, made by the real mapping from one opportunity's life (so the examples cannot drift from what is sent). */
export const WEBHOOK_EXAMPLES: Record<WebhookEventType, WebhookPayload> = (() => {
  const out: Partial<Record<WebhookEventType, WebhookPayload>> = {
    'webhook.test': testPayload(3, at('2025-11-20T09:00:00.000Z')),
    'change.detected': { type: 'change.detected', timestamp: '2025-11-24T06:01:12.408Z', data: { ...CHANGE_EXAMPLE } },
    'analysis_run.completed': {
      type: 'analysis_run.completed',
      timestamp: '2025-11-24T06:02:40.118Z',
      data: {
        id: 311, brandId: 7, trigger: 'api', status: 'partial', queries: ['best CRM for agencies', 'Acme CRM vs Globex'], providers: ['chatgpt', 'claude'],
        answersExpected: 4, answersRecorded: 3, answersFailed: 1, createdAt: '2025-11-24T06:01:58.002Z', startedAt: '2025-11-24T06:01:58.120Z',
        completedAt: '2025-11-24T06:02:40.118Z', reason: 'budget_exhausted', answersNotAsked: 1,
      },
    },
  };
  let state: OpportunityState | null = null;
  for (const { event, recordedAt, actor } of LIFE) {
    state = evolve(state, event);
    for (const payload of webhookEventsFor(event, { recordedAt, actor }, state)) out[payload.type] ??= payload;
  }
  return out as Record<WebhookEventType, WebhookPayload>;
})();
