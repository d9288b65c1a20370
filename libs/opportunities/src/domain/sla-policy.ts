import type { Severity } from './lifecycle';
import { isTerminal, type Status } from './lifecycle';

/** Hours from detection to the due time, by severity. */
export type SlaPolicy = { name: string } & Record<Severity, number>;

export const DEFAULT_SLA_POLICY: SlaPolicy = { name: 'default', critical: 24, high: 72, medium: 7 * 24, low: 30 * 24 };

export function dueAt(detectedAt: Date, severity: Severity, policy: SlaPolicy = DEFAULT_SLA_POLICY): Date {
  return new Date(detectedAt.getTime() + policy[severity] * 3_600_000);
}

export interface SlaState {
  policy: string;
  dueAt: string;
  breached: boolean;
  breachedAt: string | null;
}

/** A non-terminal opportunity past its due time is breached (as of `now`). */
export function slaAt(policy: string, due: Date, status: Status, now: Date): SlaState {
  const breached = !isTerminal(status) && now.getTime() > due.getTime();
  return { policy, dueAt: due.toISOString(), breached, breachedAt: breached ? due.toISOString() : null };
}
