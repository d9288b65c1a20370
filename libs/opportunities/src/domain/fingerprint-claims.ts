import { eventDecoder, type StoredEventLike } from '@libs/event-sourcing';
import type { DetectionReport } from './decide';

/** What a claim records: the whole detection, so anyone who finds the claim can open its opportunity. */
export interface ClaimedDetection extends DetectionReport {
  id: number;
  fingerprint: string;
  recurrenceOf: number | null;
  /** ISO 8601. */
  detectedAt: string;
}

/**
 * A claim on a fingerprint (stream `fingerprint-<organisation>-[c<client>-]<hash>`): the report
 * that opened, or is opening, an opportunity. Claims recorded before detections were carried in
 * them have no `detection`.
 */
export interface FingerprintClaimed {
  type: 'opportunity.fingerprint_claimed';
  data: { opportunityId: number; fingerprint: string; detection?: ClaimedDetection };
}

export const fingerprintClaimEvents = eventDecoder<FingerprintClaimed>({
  'opportunity.fingerprint_claimed': { opportunityId: 'number', fingerprint: 'string' },
});

/** A claim stream's event, typed; throws when its type is not a claim's. */
export function asFingerprintClaim(event: StoredEventLike): FingerprintClaimed {
  const decoded = fingerprintClaimEvents.decode(event);
  if (!decoded) throw new Error(`${event.type} is not a fingerprint claim`);
  return decoded;
}
