import { OPPORTUNITY_EVENT_TYPES, type OpportunityDetected, type OpportunityEvent } from '@libs/opportunities';
import type { WebhookPayload } from '../domain';

/** The opportunity events the dispatcher reads (each raises at least one webhook event). */
export const DOMAIN_EVENT_TYPES = OPPORTUNITY_EVENT_TYPES;

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

/** The facts the dispatcher keeps, from the detection and the brand's client. */
export function opportunityFactsOf(detected: OpportunityDetected, clientId: number | null): OpportunityFacts {
  const d = detected.data;
  return { id: d.id, organizationId: d.organizationId, clientId, brandId: d.brandId, type: d.type, severity: d.severity, title: d.title };
}

const opportunityRef = (f: OpportunityFacts) => ({
  opportunityId: f.id,
  organizationId: f.organizationId,
  brandId: f.brandId,
  type: f.type,
  severity: f.severity,
  title: f.title,
});

/** When and by whom the domain event was recorded (the feed's record of it). */
export interface Recorded {
  recordedAt: Date;
  actor: string | null;
}

/**
 * The webhook events one opportunity event raises (one or two): detected → opportunity.opened;
 * transitioned → opportunity.transitioned, and also opportunity.resolved when it moved to
 * resolved; verification_recorded → verification.completed; outcome_finalized → outcome.finalized.
 * Pure: a switch on the typed union (the compiler refuses a member left out).
 */
export function webhookEventsFor(event: OpportunityEvent, recorded: Recorded, facts: OpportunityFacts): WebhookPayload[] {
  const timestamp = recorded.recordedAt.toISOString();
  switch (event.type) {
    case 'opportunity.detected': {
      const d = event.data;
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
    }
    case 'opportunity.transitioned': {
      const d = event.data;
      const move = { ...opportunityRef(facts), from: d.from, to: d.to, reason: d.reason ?? null, owner: d.owner ?? null, at: d.at, actor: recorded.actor };
      const out: WebhookPayload[] = [{ type: 'opportunity.transitioned', timestamp, data: move }];
      if (d.to === 'resolved') out.push({ type: 'opportunity.resolved', timestamp, data: { ...move, resolvedAt: d.at } });
      return out;
    }
    case 'opportunity.verification_recorded': {
      const d = event.data;
      return [{ type: 'verification.completed', timestamp, data: { ...opportunityRef(facts), status: d.status, details: d.details ?? {}, checkedAt: d.checkedAt } }];
    }
    case 'opportunity.outcome_finalized':
      return [{ type: 'outcome.finalized', timestamp, data: { ...opportunityRef(facts), outcome: event.data } }];
    default: {
      const unhandled: never = event;
      throw new Error(`no webhook mapping for ${(unhandled as { type: string }).type}`);
    }
  }
}
