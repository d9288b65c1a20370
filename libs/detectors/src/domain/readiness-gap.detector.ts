import type { Severity } from './answer-facts';
import { auditLink, historyEvidence, maxSeverity, pageCandidates, pageOfEvidence, verifyPage, type PageDetection, type PageDetectorDefinition, type PageDetectorInput, type PageResult } from './page-history';
import type { Thresholds } from './thresholds';

type PageThresholds = Pick<Thresholds, 'minPageScore' | 'maxScoreDrop'>;

/** What keeps a page from being ready: its score below the floor, and/or its fall since the audit before. */
export interface ReadinessGap {
  low: boolean;
  drop: { from: number; to: number; points: number; auditId: number; auditedAt: string } | null;
}

/** The readiness gap of `latest` (null: none), the fall measured from `previous` (the audit before it). */
export function readinessGapOf(latest: PageResult, previous: PageResult | undefined, t: PageThresholds): ReadinessGap | null {
  const low = latest.score < t.minPageScore;
  const fall = previous ? previous.score - latest.score : 0;
  const drop = previous && fall >= t.maxScoreDrop ? { from: previous.score, to: latest.score, points: fall, auditId: previous.auditId, auditedAt: previous.auditedAt } : null;
  return low || drop ? { low, drop } : null;
}

/** The components that cost the page the most points (weight - points), with what to do. */
function weakest(latest: PageResult, count = 3): Record<string, unknown>[] {
  return [...latest.components]
    .map((c) => ({ c, missing: Math.round((c.weight - c.points) * 10) / 10 }))
    .filter((x) => x.missing > 0)
    .sort((a, b) => b.missing - a.missing || a.c.component.localeCompare(b.c.component))
    .slice(0, count)
    .map(({ c, missing }) => ({ component: c.component, weight: c.weight, points: c.points, missingPoints: missing, actions: c.checks.filter((k) => k.got < k.max - 1e-9).map((k) => k.action) }));
}

function severity(gap: ReadinessGap, score: number, t: PageThresholds): Severity {
  const fromLow: Severity = gap.low ? (score < t.minPageScore / 2 ? 'high' : 'medium') : 'low';
  const fromDrop: Severity = gap.drop ? (gap.drop.points >= 2 * t.maxScoreDrop ? 'high' : 'medium') : 'low';
  return maxSeverity(fromLow, fromDrop);
}

/**
 * readiness_gap: a page's latest audit scores it below `minPageScore` (not ready to be cited by AI
 * answers), or `maxScoreDrop` points or more below the audit before it (something on the page
 * broke). Severity: high under half the floor or for a fall of twice the allowed points, medium
 * otherwise. The evidence names the components that cost the most points and what to do. One
 * problem per page.
 */
export const readinessGap: PageDetectorDefinition = {
  type: 'readiness_gap',
  detect(input: PageDetectorInput): PageDetection[] {
    const t = input.thresholds;
    const out: PageDetection[] = [];
    for (const { page, fingerprint, latest, previous } of pageCandidates(input, 'readiness_gap')) {
      const gap = readinessGapOf(latest, previous, t);
      if (!gap) continue;
      const what = [gap.low ? `scores ${latest.score} of 100, under the ${t.minPageScore} a page needs` : null, gap.drop ? `lost ${gap.drop.points} points since the audit of ${gap.drop.auditedAt.slice(0, 10)} (${gap.drop.from} → ${gap.drop.to})` : null].filter(Boolean).join(' and ');
      const weak = weakest(latest);
      out.push({
        type: 'readiness_gap',
        fingerprint,
        severity: severity(gap, latest.score, t),
        title: `${input.brandName}: ${page.url} ${gap.drop && !gap.low ? `lost ${gap.drop.points} points of GEO readiness` : `is not ready for AI answers (score ${latest.score})`}`,
        description: `The page ${what}. It loses most on ${weak.map((w) => `${w.component} (${w.missingPoints} points)`).join(', ')}.`,
        evidence: {
          detector: 'readiness_gap',
          page: { url: page.url, kinds: latest.kinds },
          audit: { id: latest.auditId, resultId: latest.resultId, auditedAt: latest.auditedAt, link: auditLink(input.brandId, latest.auditId) },
          score: latest.score,
          minPageScore: t.minPageScore,
          drop: gap.drop,
          maxScoreDrop: t.maxScoreDrop,
          weakest: weak,
          history: historyEvidence(page.results),
        },
      });
    }
    return out;
  },
  verify(evidence, after, t) {
    // The gap closes when readinessGapOf finds none, measured from where the page fell from (for a fall).
    const drop = evidence.drop as { from?: unknown; auditId?: unknown; auditedAt?: unknown } | null | undefined;
    return verifyPage(
      pageOfEvidence(evidence),
      after,
      (latest) => {
        const before = drop && typeof drop.from === 'number' ? { ...latest, score: drop.from, auditId: Number(drop.auditId), auditedAt: String(drop.auditedAt) } : undefined;
        const gap = readinessGapOf(latest, before, t);
        if (!gap) return null;
        return [gap.low ? `score ${latest.score} under ${t.minPageScore}` : null, gap.drop ? `score ${latest.score}, still ${gap.drop.points} points under the ${gap.drop.from} it fell from` : null].filter(Boolean).join('; ');
      },
      (latest) => ({ score: latest.score, scoreAtDetection: typeof evidence.score === 'number' ? evidence.score : null }),
    );
  },
};
