/**
 * The webhook event types, what each means and an example of each payload. Pure: no I/O. How an
 * opportunity event becomes webhook events: shared/opportunity-webhook-events.ts.
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
  'change.detected',
  'analysis_run.completed',
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

/** What each type means (GET /webhooks/events, the OpenAPI document, the README); examples: shared/webhook-examples.ts. */
export const WEBHOOK_EVENT_DESCRIPTIONS: Record<WebhookEventType, string> = {
  'opportunity.opened': 'An opportunity was detected (by a detector or POST /opportunities). data: the opportunity record.',
  'opportunity.resolved': 'An opportunity moved to resolved (its fix was verified). data: the opportunity record after the move, with change {from, to, reason, actor, at}.',
  'verification.completed': 'The check of a deployed fix was recorded (passed or failed). data: {opportunity, verification}.',
  'outcome.finalized': 'The business impact of a resolved opportunity was finalised. data: {opportunity, outcome}.',
  'opportunity.transitioned': 'An opportunity changed state (every lifecycle move, including to resolved). data: the opportunity record after the move, with change {from, to, reason, actor, at}.',
  'change.detected':
    'An answer differs from the previous answer to the same prompt by the same provider (DESIGN §14: mention gained or lost, top 3 entered or left, rank, citation of a brand domain gained or lost, sentiment, a competitor entering). data: the change record as GET /changes returns it.',
  'analysis_run.completed':
    'An analysis run ended: completed, partial (some answers failed, or reason budget_exhausted when a budget stopped it asking) or failed. data: the run record as GET /analysis-runs lists it (its cost: GET /analysis-runs/{id}).',
  'webhook.test': 'Sent by POST /webhooks/{id}/test, whatever the subscription lists. data: {webhookId, message}.',
};
