import { createHash } from 'node:crypto';
import { isTerminal, type OpportunityType, type Status } from './lifecycle';

/**
 * The fingerprint says "this is the same problem". A detector may give its own; otherwise it is
 * derived from the brand, the type and the title with case, spacing and punctuation folded.
 */
export function defaultFingerprint(brandId: number, type: OpportunityType, title: string): string {
  const folded = title.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
  return `${type}:${brandId}:${createHash('sha256').update(folded).digest('hex').slice(0, 32)}`;
}

export interface KnownOpportunity {
  id: number;
  status: Status;
  detectedAt: Date;
}

export type DeduplicationDecision = { kind: 'existing'; id: number } | { kind: 'new'; recurrenceOf: number | null };

/**
 * Given the organisation's opportunities with the same fingerprint: while one is open, a new
 * report is that one; otherwise it is a new opportunity, linked to the latest resolved one when
 * the problem recurs after a fix (a dismissed one is not linked: it was judged no problem).
 */
export function deduplicate(sameFingerprint: readonly KnownOpportunity[]): DeduplicationDecision {
  const open = sameFingerprint.filter((o) => !isTerminal(o.status)).sort((a, b) => a.id - b.id);
  if (open.length) return { kind: 'existing', id: open[0].id };
  const resolved = sameFingerprint.filter((o) => o.status === 'resolved').sort((a, b) => b.detectedAt.getTime() - a.detectedAt.getTime() || b.id - a.id);
  return { kind: 'new', recurrenceOf: resolved[0]?.id ?? null };
}
