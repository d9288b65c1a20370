import type { Severity } from './answer-facts';
import { auditLink, historyEvidence, pageCandidates, pageOfEvidence, raise, verifyPage, type PageCheck, type PageDetection, type PageDetectorDefinition, type PageDetectorInput, type PageResult } from './page-history';

/** The structured-data checks of a page audit that make a schema gap (page audits' `structuredData` component). */
const SCHEMA_CHECKS = ['add_json_ld', 'fix_json_ld', 'add_schema_type'] as const;
/** Kinds of page whose schema.org type is how engines read them (a product's offer, an FAQ's answers, a how-to's steps). */
const SCHEMA_LED_KINDS = new Set(['product', 'faq', 'howto']);

/**
 * The schema checks a result fails: no JSON-LD, a block that does not parse, or no schema.org type
 * fitting any kind the page looks like (a page with Product markup that also reads like an article
 * has its type; the missing Article is a page-audit recommendation, not a gap).
 */
export function schemaProblems(r: PageResult): PageCheck[] {
  const checks = r.components.find((c) => c.component === 'structuredData')?.checks ?? [];
  return checks.filter((c) => (SCHEMA_CHECKS as readonly string[]).includes(c.code) && (c.code === 'add_schema_type' ? c.got <= 1e-9 : c.got < c.max - 1e-9));
}

function severity(problems: readonly PageCheck[], kinds: readonly string[], brokeSinceLastAudit: boolean): Severity {
  const missingOrBroken = problems.some((p) => p.code === 'add_json_ld' || p.code === 'fix_json_ld');
  const schemaLed = kinds.some((k) => SCHEMA_LED_KINDS.has(k));
  const base: Severity = missingOrBroken ? (schemaLed ? 'high' : 'medium') : schemaLed ? 'medium' : 'low';
  return brokeSinceLastAudit ? raise(base) : base;
}

/**
 * schema_gap: a page's latest audit finds its structured data missing, broken (a JSON-LD block that
 * does not parse) or not saying what the page is (no schema.org type fitting any of its kinds). Severity:
 * high for missing or broken markup on a product, FAQ or how-to page, medium elsewhere; medium for
 * a type that does not fit on those pages, low elsewhere; one level more when the previous audit of
 * the page had no gap (the markup broke since). One problem per page.
 */
export const schemaGap: PageDetectorDefinition = {
  type: 'schema_gap',
  detect(input: PageDetectorInput): PageDetection[] {
    const out: PageDetection[] = [];
    for (const { page, fingerprint, latest, previous } of pageCandidates(input, 'schema_gap')) {
      const problems = schemaProblems(latest);
      if (!problems.length) continue;
      const brokeSince = previous !== undefined && schemaProblems(previous).length === 0;
      const sd = latest.components.find((c) => c.component === 'structuredData');
      out.push({
        type: 'schema_gap',
        fingerprint,
        severity: severity(problems, latest.kinds, brokeSince),
        title: `${input.brandName}: ${page.url} ${problems.some((p) => p.code === 'fix_json_ld') ? 'has broken structured data' : problems.some((p) => p.code === 'add_json_ld') ? 'has no structured data' : 'lacks the schema.org type that fits it'}`,
        description: `${problems.map((p) => p.finding).join('; ')}. ${problems.map((p) => p.action).join('. ')}.${brokeSince ? ` The audit of ${previous.auditedAt.slice(0, 10)} had none of these problems.` : ''}`,
        evidence: {
          detector: 'schema_gap',
          page: { url: page.url, kinds: latest.kinds },
          audit: { id: latest.auditId, resultId: latest.resultId, auditedAt: latest.auditedAt, link: auditLink(input.brandId, latest.auditId) },
          structuredData: sd ? { value: sd.value, weight: sd.weight, points: sd.points } : null,
          problems: problems.map((p) => ({ code: p.code, finding: p.finding, action: p.action })),
          brokeSince: brokeSince ? { auditId: previous.auditId, auditedAt: previous.auditedAt } : null,
          history: historyEvidence(page.results, 'structuredData'),
        },
      });
    }
    return out;
  },
  verify(evidence, after) {
    return verifyPage(
      pageOfEvidence(evidence),
      after,
      (latest) => {
        const problems = schemaProblems(latest);
        return problems.length ? problems.map((p) => p.finding).join('; ') : null;
      },
      (latest) => ({ structuredData: latest.components.find((c) => c.component === 'structuredData')?.value ?? null }),
    );
  },
};
