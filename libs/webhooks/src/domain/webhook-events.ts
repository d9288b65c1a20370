/**
 * The webhook event types, what each means, an example of each payload, and how a domain event
 * of the opportunity stream becomes webhook events. Pure: no I/O.
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

/** Facts about an opportunity the dispatcher keeps from its detection (later events lack them). */
export interface OpportunityFacts {
  id: number;
  organizationId: number;
  clientId: number | null;
  brandId: number;
  type: string;
  severity: string;
  title: string;
}

const opportunityRef = (f: OpportunityFacts) => ({
  opportunityId: f.id,
  organizationId: f.organizationId,
  brandId: f.brandId,
  type: f.type,
  severity: f.severity,
  title: f.title,
});

/** The domain event, as the dispatcher reads it from the feed. */
export interface SourceEvent {
  type: string;
  data: Record<string, unknown>;
  recordedAt: Date;
  actor: string | null;
}

/**
 * The webhook events one domain event of an opportunity raises (zero, one or two):
 * detected → opportunity.opened; transitioned → opportunity.transitioned, and also
 * opportunity.resolved when it moved to resolved; verification_recorded →
 * verification.completed; outcome_finalized → outcome.finalized.
 */
export function webhookEventsFor(event: SourceEvent, facts: OpportunityFacts): WebhookPayload[] {
  const timestamp = event.recordedAt.toISOString();
  const d = event.data;
  switch (event.type) {
    case 'opportunity.detected':
      return [
        {
          type: 'opportunity.opened',
          timestamp,
          data: {
            ...opportunityRef(facts),
            status: 'detected',
            description: d.description ?? null,
            fingerprint: d.fingerprint,
            source: d.source,
            evidence: d.evidence ?? {},
            recurrenceOf: d.recurrenceOf ?? null,
            sla: { policy: d.slaPolicy, dueAt: d.dueAt },
            detectedAt: d.detectedAt,
          },
        },
      ];
    case 'opportunity.transitioned': {
      const move = { ...opportunityRef(facts), from: d.from, to: d.to, reason: d.reason ?? null, owner: d.owner ?? null, at: d.at, actor: event.actor };
      const out: WebhookPayload[] = [{ type: 'opportunity.transitioned', timestamp, data: move }];
      if (d.to === 'resolved') out.push({ type: 'opportunity.resolved', timestamp, data: { ...move, resolvedAt: d.at } });
      return out;
    }
    case 'opportunity.verification_recorded':
      return [{ type: 'verification.completed', timestamp, data: { ...opportunityRef(facts), status: d.status, details: d.details ?? {}, checkedAt: d.checkedAt } }];
    case 'opportunity.outcome_finalized':
      return [{ type: 'outcome.finalized', timestamp, data: { ...opportunityRef(facts), outcome: d } }];
    default:
      return [];
  }
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

/** Which webhook event types the dispatcher can raise from which domain event type. */
export const DOMAIN_EVENT_TYPES = ['opportunity.detected', 'opportunity.transitioned', 'opportunity.verification_recorded', 'opportunity.outcome_finalized'] as const;
