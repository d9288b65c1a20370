import { eventDecoder, type Decider, type StoredEventLike } from '@libs/event-sourcing';
import { decide, type OpportunityCommand } from './decide';
import { evolve, type OpportunityState } from './opportunity';
import type { OpportunityEvent } from './opportunity.events';

/** The opportunity's whole write-side behaviour: decide (decide.ts), evolve (opportunity.ts), no state before detection. */
export const opportunityDecider: Decider<OpportunityState | null, OpportunityCommand, OpportunityEvent> = {
  initialState: null,
  evolve,
  decide: (command, state) => decide(state, command),
};

/**
 * The opportunity events of a recorded event, typed: `decodeOpportunityEvent(e)` is the member of
 * OpportunityEvent its type names (its data checked), or null for another module's event.
 */
export const opportunityEvents = eventDecoder<OpportunityEvent>({
  'opportunity.detected': {
    id: 'number',
    organizationId: 'number',
    brandId: 'number',
    type: 'string',
    severity: 'string',
    title: 'string',
    description: 'string?',
    fingerprint: 'string',
    source: 'string',
    evidence: 'object',
    recurrenceOf: 'number?',
    slaPolicy: 'string',
    dueAt: 'string',
    detectedAt: 'string',
  },
  'opportunity.transitioned': { from: 'string', to: 'string', reason: 'string?', owner: 'string?', at: 'string' },
  'opportunity.verification_recorded': { status: 'string', details: 'object', checkedAt: 'string' },
  'opportunity.outcome_finalized': {
    citationRateBefore: 'number?',
    citationRateAfter: 'number?',
    aiTrafficBefore: 'number?',
    aiTrafficAfter: 'number?',
    conversions: 'number?',
    revenue: 'number?',
    currency: 'string',
    finalizedAt: 'string',
  },
});

export const decodeOpportunityEvent = opportunityEvents.decode;

/** An event of an opportunity stream, typed; throws when its type is not an opportunity event's. */
export function asOpportunityEvent(event: StoredEventLike): OpportunityEvent {
  const decoded = opportunityEvents.decode(event);
  if (!decoded) throw new Error(`${event.type} is not an opportunity event`);
  return decoded;
}
