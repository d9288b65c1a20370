/**
 * The webhook event types, what each means and an example of each payload. Pure: no I/O. How an
 * opportunity event becomes webhook events: dispatch-webhooks/opportunity-webhook-events.ts.
 *
 * Every delivery's body is `{ "type", "timestamp", "data" }` (Standard Webhooks' payload shape);
 * `timestamp` is when the domain event was recorded.
 */
export const WEBHOOK_EVENT_TYPES = [
  'opportunity.opened',
  'opportunity.resolved',
  'verification.completed',
  'outcome.finalized',
  'opportunity.transitioned',
  'webhook.test',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export function isWebhookEventType(value: unknown): value is WebhookEventType {
  return typeof value === 'string' && (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}

export interface WebhookPayload<D = Record<string, unknown>> {
  type: WebhookEventType;
  timestamp: string;
  data: D;
}

export function testPayload(webhookId: number, now: Date): WebhookPayload {
  return {
    type: 'webhook.test',
    timestamp: now.toISOString(),
    data: { webhookId, message: 'This is a test delivery. Verify its signature and answer 2xx.' },
  };
}

const ref = { opportunityId: 4821, organizationId: 12, brandId: 7, type: 'competitor_gap', severity: 'high', title: 'Competitor cited on pricing answers' };

/** What each type means and an example payload (GET /webhooks/events, the OpenAPI document, the README). */
export const WEBHOOK_EVENT_CATALOG: Record<WebhookEventType, { description: string; example: WebhookPayload }> = {
  'opportunity.opened': {
    description: 'An opportunity was detected (by a detector or POST /opportunities).',
    example: {
      type: 'opportunity.opened',
      timestamp: '2025-11-20T09:15:02.114Z',
      data: {
        ...ref, status: 'detected', description: null, fingerprint: 'competitor_gap:7:pricing', source: 'api', evidence: { competitor: 'Globex' },
        recurrenceOf: null, sla: { policy: 'default', dueAt: '2025-11-23T09:15:02.114Z' }, detectedAt: '2025-11-20T09:15:02.114Z',
      },
    },
  },
  'opportunity.resolved': {
    description: 'An opportunity moved to resolved (its fix was verified).',
    example: {
      type: 'opportunity.resolved',
      timestamp: '2025-12-02T16:40:11.508Z',
      data: { ...ref, from: 'verifying', to: 'resolved', reason: 'Cited again on 9 of 10 prompts', owner: 'ana', at: '2025-12-02T16:40:11.508Z', actor: 'key:31', resolvedAt: '2025-12-02T16:40:11.508Z' },
    },
  },
  'verification.completed': {
    description: 'The check of a deployed fix was recorded (passed or failed).',
    example: {
      type: 'verification.completed',
      timestamp: '2025-12-02T16:38:54.020Z',
      data: { ...ref, status: 'passed', details: { promptsChecked: 10, cited: 9 }, checkedAt: '2025-12-02T16:38:54.020Z' },
    },
  },
  'outcome.finalized': {
    description: 'The business impact of a resolved opportunity was finalised.',
    example: {
      type: 'outcome.finalized',
      timestamp: '2026-01-05T08:00:00.000Z',
      data: {
        ...ref,
        outcome: { citationRateBefore: 0.12, citationRateAfter: 0.41, aiTrafficBefore: 310, aiTrafficAfter: 795, conversions: 23, revenue: 4140, currency: 'USD', finalizedAt: '2026-01-05T08:00:00.000Z' },
      },
    },
  },
  'opportunity.transitioned': {
    description: 'An opportunity changed state (every lifecycle move, including to resolved).',
    example: {
      type: 'opportunity.transitioned',
      timestamp: '2025-11-21T10:02:45.900Z',
      data: { ...ref, from: 'detected', to: 'assigned', reason: 'Pricing page owner', owner: 'ana', at: '2025-11-21T10:02:45.900Z', actor: 'key:31' },
    },
  },
  'webhook.test': {
    description: 'Sent by POST /webhooks/{id}/test, whatever the subscription lists.',
    example: { type: 'webhook.test', timestamp: '2025-11-20T09:00:00.000Z', data: { webhookId: 3, message: 'This is a test delivery. Verify its signature and answer 2xx.' } },
  },
};
