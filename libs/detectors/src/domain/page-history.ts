import type { Detection, Severity } from './answer-facts';
import type { Thresholds } from './thresholds';
import type { VerificationDecision } from './verification';

/** The opportunity types the page detectors open (fed by page audits' history, DESIGN §13.5). */
export type PageDetectorType = 'readiness_gap' | 'schema_gap';

/** One check of a score component, as page audits keep it (`page_audit_results.components`). */
export interface PageCheck {
  code: string;
  max: number;
  got: number;
  finding: string;
  action: string;
}

/** One component of a page's GEO score, as page audits keep it. */
export interface PageComponent {
  component: string;
  weight: number;
  value: number;
  points: number;
  checks: PageCheck[];
}

/** One scored audit of a page: its score, components and what the page looked like. */
export interface PageResult {
  resultId: number;
  auditId: number;
  url: string;
  score: number;
  components: PageComponent[];
  kinds: string[];
  auditedAt: string;
}

/** A page of a brand and its scored audits, oldest first (the latest is the page as it is now). */
export interface PageHistory {
  url: string;
  results: PageResult[];
}

export interface PageDetectorInput {
  brandId: number;
  brandName: string;
  pages: readonly PageHistory[];
  openFingerprints: ReadonlySet<string>;
  thresholds: Pick<Thresholds, 'minPageScore' | 'maxScoreDrop'>;
}

export interface PageDetection extends Omit<Detection, 'type'> {
  type: PageDetectorType;
}

/** A page detector: detection over the brand's page history, and the re-check of its gap on the page's audits after a fix. */
export interface PageDetectorDefinition {
  readonly type: PageDetectorType;
  detect(input: PageDetectorInput): PageDetection[];
  /** `after`: the page's scored audits made after the fix was deployed, oldest first. */
  verify(evidence: Record<string, unknown>, after: readonly PageResult[], t: Pick<Thresholds, 'minPageScore' | 'maxScoreDrop'>): VerificationDecision;
}

/** One problem per page and type: `<type>:<brand>:<url>`. */
export const pageFingerprint = (type: PageDetectorType, brandId: number, url: string) => `${type}:${brandId}:${url}`;

/** A page a detector of `type` judges: audited, its problem not open yet; its latest audit and the one before. */
export interface PageCandidate {
  page: PageHistory;
  fingerprint: string;
  latest: PageResult;
  previous: PageResult | undefined;
}

/** The pages a page detector of `type` judges (as `candidates` is for the answer detectors). */
export function pageCandidates(input: PageDetectorInput, type: PageDetectorType): PageCandidate[] {
  const out: PageCandidate[] = [];
  for (const page of input.pages) {
    const latest = page.results[page.results.length - 1];
    if (!latest) continue;
    const fingerprint = pageFingerprint(type, input.brandId, page.url);
    if (input.openFingerprints.has(fingerprint)) continue;
    out.push({ page, fingerprint, latest, previous: page.results[page.results.length - 2] });
  }
  return out;
}

/** Severities in order (the opportunity queue's; a domain file imports no other library). */
const SEVERITIES: readonly Severity[] = ['low', 'medium', 'high', 'critical'];
export const raise = (s: Severity): Severity => SEVERITIES[Math.min(SEVERITIES.length - 1, SEVERITIES.indexOf(s) + 1)];
export const maxSeverity = (a: Severity, b: Severity): Severity => (SEVERITIES.indexOf(a) >= SEVERITIES.indexOf(b) ? a : b);

/** Where to see an audit's pages (API). */
export const auditLink = (brandId: number, auditId: number) => `/api/v1/brands/${brandId}/page-audits/${auditId}`;

/** The page's last audits (up to five, newest last) as evidence: when, the score, the component named. */
export function historyEvidence(results: readonly PageResult[], component?: string): Record<string, unknown>[] {
  return results.slice(-5).map((r) => ({
    auditId: r.auditId,
    resultId: r.resultId,
    auditedAt: r.auditedAt,
    score: r.score,
    ...(component ? { [component]: r.components.find((c) => c.component === component)?.value ?? null } : {}),
  }));
}

/** The page's scope in an opportunity's evidence (`page`), read back for verification. */
export function pageOfEvidence(evidence: Record<string, unknown>): string | null {
  const page = evidence.page as { url?: unknown } | undefined;
  return page && typeof page.url === 'string' ? page.url : null;
}

/** Verification of a page gap: waits for an audit of the page after the fix; passes when the latest such audit no longer shows the gap. */
export function verifyPage(url: string | null, after: readonly PageResult[], stillThere: (latest: PageResult) => string | null, figures: (latest: PageResult) => Record<string, unknown>): VerificationDecision {
  if (!url) return { status: 'waiting', reason: 'the detection names no page', details: {} };
  const latest = after[after.length - 1];
  if (!latest) return { status: 'waiting', reason: `no audit of ${url} since the fix was deployed (POST /api/v1/brands/{id}/page-audits audits it)`, details: { page: url, auditsAfterFix: 0 } };
  const gap = stillThere(latest);
  const details = { page: url, auditsAfterFix: after.length, audit: { id: latest.auditId, resultId: latest.resultId, auditedAt: latest.auditedAt }, ...figures(latest) };
  return gap === null
    ? { status: 'passed', reason: `the audit of ${latest.auditedAt.slice(0, 10)} shows the gap closed: ${describe(figures(latest))}`, details }
    : { status: 'failed', reason: `the audit of ${latest.auditedAt.slice(0, 10)} after the fix still shows it: ${gap}`, details };
}

const describe = (f: Record<string, unknown>) =>
  Object.entries(f)
    .map(([k, v]) => `${k} ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
    .join(', ');
