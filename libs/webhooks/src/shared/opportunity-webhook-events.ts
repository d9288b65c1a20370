import { OPPORTUNITY_EVENT_TYPES, toRecord, type OpportunityEvent, type OpportunityRecord, type OpportunityState } from '@libs/opportunities';
import type { WebhookPayload } from '../domain';

/** The opportunity events the dispatcher reads (each raises at least one webhook event). */
export const DOMAIN_EVENT_TYPES = OPPORTUNITY_EVENT_TYPES;

/** When and by whom the domain event was recorded (the feed's record of it). */
export interface Recorded {
  recordedAt: Date;
  actor: string | null;
}

/** What a lifecycle move changed, beside the record it produced. */
export interface OpportunityChange {
  from: string;
  to: string;
  reason: string | null;
  actor: string | null;
  at: string;
}

/** `opportunity.opened`: the record; `opportunity.transitioned` and `.resolved`: the record and its change. */
export type OpportunityWebhookData = OpportunityRecord | (OpportunityRecord & { change: OpportunityChange });

/**
 * The webhook events one opportunity event raises (one or two), each carrying the opportunity
 * record exactly as `GET /api/v1/opportunities/{id}?asOf=<recorded time>` answers it: `state` is
 * the opportunity folded up to and including this event (its stream revision), and the SLA is
 * judged at the time the event was recorded.
 * - detected → `opportunity.opened`: `data` is the record;
 * - transitioned → `opportunity.transitioned` (and `opportunity.resolved` when it moved to
 *   resolved): the record plus `change` (`from`, `to`, `reason`, `actor`, `at`);
 * - verification_recorded → `verification.completed`: `{ opportunity, verification }`;
 * - outcome_finalized → `outcome.finalized`: `{ opportunity, outcome }`.
 * Pure: a switch on the typed union (the compiler refuses a member left out).
 */
export function webhookEventsFor(event: OpportunityEvent, recorded: Recorded, state: OpportunityState): WebhookPayload[] {
  const timestamp = recorded.recordedAt.toISOString();
  const opportunity = toRecord(state, recorded.recordedAt);
  switch (event.type) {
    case 'opportunity.detected':
      return [{ type: 'opportunity.opened', timestamp, data: opportunity }];
    case 'opportunity.transitioned': {
      const d = event.data;
      const change: OpportunityChange = { from: d.from, to: d.to, reason: d.reason ?? null, actor: recorded.actor, at: d.at };
      const data = { ...opportunity, change };
      const out: WebhookPayload[] = [{ type: 'opportunity.transitioned', timestamp, data }];
      if (d.to === 'resolved') out.push({ type: 'opportunity.resolved', timestamp, data });
      return out;
    }
    case 'opportunity.verification_recorded':
      return [{ type: 'verification.completed', timestamp, data: { opportunity, verification: opportunity.verification } }];
    case 'opportunity.outcome_finalized':
      return [{ type: 'outcome.finalized', timestamp, data: { opportunity, outcome: opportunity.outcome } }];
    default: {
      const unhandled: never = event;
      throw new Error(`no webhook mapping for ${(unhandled as { type: string }).type}`);
    }
  }
}
