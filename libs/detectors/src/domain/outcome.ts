import type { AnswerFact } from './answer-facts';
import { evidenceRate, type EvidenceRate } from './significance';

/** An opportunity's windows: `before` ends at detection, `after` starts at resolution; both `days` long. */
export interface OutcomeWindows {
  before: { from: string; to: string };
  after: { from: string; to: string };
  days: number;
}

export function outcomeWindows(detectedAt: Date, resolvedAt: Date, days: number): OutcomeWindows {
  const ms = days * 86_400_000;
  return {
    before: { from: new Date(detectedAt.getTime() - ms).toISOString(), to: detectedAt.toISOString() },
    after: { from: resolvedAt.toISOString(), to: new Date(resolvedAt.getTime() + ms).toISOString() },
    days,
  };
}

/** The answer figures of an outcome (DESIGN §14 rates with n and intervals; null values where n = 0). */
export interface AnswerOutcome {
  mentionRate: { before: EvidenceRate; after: EvidenceRate; change: number | null };
  citationRate: { before: EvidenceRate; after: EvidenceRate; change: number | null };
}

const change = (a: EvidenceRate, b: EvidenceRate) => (a.value === null || b.value === null ? null : b.value - a.value);

/** Mention rate (answers mentioning the brand / answers) and citation rate (answers citing it / answers citing anything), before and after. */
export function answerOutcome(before: readonly AnswerFact[], after: readonly AnswerFact[]): AnswerOutcome {
  const mention = (xs: readonly AnswerFact[]) => evidenceRate({ k: xs.filter((a) => a.brand.mentioned).length, n: xs.length });
  const citation = (xs: readonly AnswerFact[]) => {
    const withCitations = xs.filter((a) => a.withCitations);
    return evidenceRate({ k: withCitations.filter((a) => a.cited).length, n: withCitations.length });
  };
  const mb = mention(before);
  const ma = mention(after);
  const cb = citation(before);
  const ca = citation(after);
  return { mentionRate: { before: mb, after: ma, change: change(mb, ma) }, citationRate: { before: cb, after: ca, change: change(cb, ca) } };
}
