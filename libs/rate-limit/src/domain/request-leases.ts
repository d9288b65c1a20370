import { withRemaining, type Limits, type RateLimitDecision } from './rate-limit-decision';

/**
 * Leases: a process takes several requests of a busy subject's budget in one Redis call and serves
 * the subject's next requests from them without a round trip. The shared budget stays in Redis
 * (every leased request is consumed there); what a lease changes is that a process may hold
 * requests it has not used yet, so it is kept small:
 * - no bigger than the subject's demand in this process (requests seen in the last `ttlMs`): a
 *   client that sends one request now and then never leases;
 * - at most `maxSize`, and (decided by the Redis script on the budget as it is at that moment) at
 *   most `share` of what the tightest limit has left, at least one: near a limit a lease is one
 *   request, and the limits are exact where they bind;
 * - for at most `ttlMs` (and never past the end of the UTC day); what is not used by then is given
 *   up (counted as used).
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

interface Demand {
  windowStart: number;
  current: number;
  previous: number;
}

export class RequestLeases {
  private readonly leases = new Map<string, Lease>();
  private readonly demand = new Map<string, Demand>();

  /** Counts a request of the subject (call once per request, before `take`). */
  saw(subject: string, now: number): void {
    let d = this.demand.get(subject);
    if (!d) {
      if (this.demand.size >= LEASES.maxSubjects) this.demand.clear();
      d = { windowStart: now, current: 0, previous: 0 };
      this.demand.set(subject, d);
    }
    if (now - d.windowStart >= LEASES.ttlMs) {
      d.previous = now - d.windowStart >= 2 * LEASES.ttlMs ? 0 : d.current;
      d.current = 0;
      d.windowStart = now;
    }
    d.current += 1;
  }

  /** How many requests to ask for in the next call for the subject: its recent demand, at most `maxSize`. */
  sizeFor(subject: string): number {
    const d = this.demand.get(subject);
    if (!d) return 1;
    return Math.max(1, Math.min(LEASES.maxSize, Math.max(d.current, d.previous)));
  }

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

  /**
   * Records a call's outcome: `granted` requests were consumed, the first of them by the request
   * that made the call; the rest join the subject's lease (until `now + ttlMs`, or `notAfter` if
   * sooner). Returns the decision for that request.
   */
  record(subject: string, decision: RateLimitDecision, limits: Limits, granted: number, now: number, notAfter = Infinity): RateLimitDecision {
    if (this.leases.size >= LEASES.maxSubjects) this.leases.clear();
    // Requests still held from an earlier lease are kept: they were consumed in Redis and are this process's to serve.
    const held = this.leases.get(subject);
    const kept = held && held.limits === limits && now < held.expiresAt ? held.left : 0;
    if (!decision.allowed && kept >= 1 && held) {
      // Refused in Redis (spent), but this process still holds requests taken earlier: serve one.
      held.left -= 1;
      return withRemaining(held.decision, limits, held.decision.remaining + held.left);
    }
    const left = kept + Math.max(0, granted - 1);
    if (!decision.allowed || left < 1) {
      this.leases.delete(subject);
      return decision;
    }
    this.leases.set(subject, { left, expiresAt: Math.min(now + LEASES.ttlMs, notAfter), decision, limits });
    return withRemaining(decision, limits, decision.remaining + left);
  }
}
