import { withRemaining, type Limits, type RateLimitDecision } from './rate-limit-decision';

/**
 * Leases: a process takes several requests of a subject's budget in one Redis call when the budget
 * is far from spent, and serves the next requests of that subject from them without a round trip.
 * The shared budget stays in Redis (every lease is consumed there); what a lease changes is that a
 * process may hold requests it has not used yet:
 * - at most `share` of what the tighter limit had left at the last call, and at most `maxSize`
 *   (so near a limit a lease is one request, and limits are exact);
 * - for at most `ttlMs`; what is not used by then is given up (counted as used).
 * Pure: the clock is passed in.
 */
export const LEASES = { share: 0.01, maxSize: 64, ttlMs: 1000, maxSubjects: 10_000 } as const;

interface Lease {
  /** Requests still to serve. */
  left: number;
  expiresAt: number;
  /** The decision of the call that took the lease (remaining after the whole lease). */
  decision: RateLimitDecision;
  limits: Limits;
}

export function leaseSize(remaining: number): number {
  return Math.max(1, Math.min(LEASES.maxSize, Math.floor(remaining * LEASES.share)));
}

export class RequestLeases {
  private readonly leases = new Map<string, Lease>();
  /** The lease size to ask for next, per subject (from what was left at its last call). */
  private readonly sizes = new Map<string, number>();

  /** The next request of the subject from its lease, or null (none, used up, expired or taken under other limits). */
  take(subject: string, limits: Limits, now: number): RateLimitDecision | null {
    const lease = this.leases.get(subject);
    if (!lease) return null;
    if (lease.left < 1 || now >= lease.expiresAt || lease.limits !== limits) {
      this.leases.delete(subject);
      return null;
    }
    lease.left -= 1;
    // Remaining for this caller: what Redis has left plus what this process still holds.
    return withRemaining(lease.decision, lease.limits, lease.decision.remaining + lease.left);
  }

  /** How many to ask for in the next call for the subject. */
  sizeFor(subject: string): number {
    return this.sizes.get(subject) ?? 1;
  }

  /**
   * Records a call's outcome: `granted` requests were consumed, the first of them by the request
   * that made the call; the rest become the subject's lease. Returns the decision for that request.
   */
  record(subject: string, decision: RateLimitDecision, limits: Limits, granted: number, now: number): RateLimitDecision {
    if (this.sizes.size >= LEASES.maxSubjects) this.sizes.clear();
    if (this.leases.size >= LEASES.maxSubjects) this.leases.clear();
    this.sizes.set(subject, decision.allowed ? leaseSize(decision.remaining) : 1);
    // Requests still held from an earlier lease (concurrent calls of one subject) are kept: they
    // were consumed in Redis and are this process's to serve.
    const held = this.leases.get(subject);
    const kept = held && held.limits === limits && now < held.expiresAt ? held.left : 0;
    const left = kept + Math.max(0, granted - 1);
    if (!decision.allowed && kept >= 1 && held) {
      // Refused in Redis (spent), but this process still holds requests taken earlier: serve one.
      held.left -= 1;
      return withRemaining(held.decision, limits, held.decision.remaining + held.left);
    }
    if (!decision.allowed || left < 1) {
      this.leases.delete(subject);
      return decision;
    }
    this.leases.set(subject, { left, expiresAt: now + LEASES.ttlMs, decision, limits });
    return withRemaining(decision, limits, decision.remaining + left);
  }
}
