import type { Component, Effort, PageScore } from './page-score';

/** How much an effort weighs when ranking: a low-effort fix of the same effect comes first. */
export const EFFORT_COST: Readonly<Record<Effort, number>> = { low: 1, medium: 2, high: 3 };

/** One thing to change on one page, from a check that fell short. */
export interface PageRecommendation {
  code: string;
  component: Component;
  title: string;
  action: string;
  /** Points of the page's GEO score (0-100) the fix is expected to add. */
  expectedEffect: number;
  effort: Effort;
  evidence: Record<string, unknown>;
}

const TITLES: Readonly<Record<string, string>> = {
  add_json_ld: 'Add structured data (JSON-LD)',
  fix_json_ld: 'Fix JSON-LD that does not parse',
  add_schema_type: 'Use schema.org types that fit the page',
  complete_schema: 'Complete the structured data’s key properties',
  fix_title: 'Fix the page title',
  add_description: 'Write a meta description',
  fix_h1: 'Use exactly one h1',
  fix_headings: 'Structure the content with headings',
  answer_first: 'Answer first',
  add_statistics: 'Add statistics',
  add_quotations: 'Add quotations',
  cite_sources: 'Cite sources',
  show_dates: 'Show publication and update dates',
  refresh_content: 'Refresh stale content',
  simplify_text: 'Make the text easier to read',
  allow_ai_bots: 'Let AI agents fetch the page',
  remove_noindex: 'Remove noindex',
  fix_bot_errors: 'Stop answering AI bots with errors',
  earn_citation: 'Get cited where competitors are',
};

export const titleOf = (code: string) => TITLES[code] ?? code;

const rank = (a: { expectedEffect: number; effort: Effort }, b: { expectedEffect: number; effort: Effort }) =>
  b.expectedEffect / EFFORT_COST[b.effort] - a.expectedEffect / EFFORT_COST[a.effort] || b.expectedEffect - a.expectedEffect;

/** A page's recommendations: every check short of its worth, its effect in score points, ranked by effect for the effort. */
export function pageRecommendations(score: PageScore): PageRecommendation[] {
  const out: PageRecommendation[] = [];
  for (const c of score.components) {
    const worth = c.checks.reduce((a, k) => a + k.max, 0);
    for (const k of c.checks) {
      const gain = (c.weight * (k.max - k.got)) / worth;
      if (gain < 0.1) continue;
      out.push({ code: k.code, component: c.component, title: titleOf(k.code), action: k.action, expectedEffect: Math.round(gain * 10) / 10, effort: k.effort, evidence: { finding: k.finding, ...(k.evidence ?? {}) } });
    }
  }
  return out.sort(rank);
}

/** A recommendation for the brand: one page finding across its pages, or one prompt where competitors are cited instead. */
export interface BrandRecommendation {
  id: string;
  source: 'pages' | 'answers';
  code: string;
  /** The page-score component it improves, or `citations` for an answer finding. */
  component: Component | 'citations';
  title: string;
  action: string;
  expectedEffect: { value: number; unit: 'page_score_points' | 'citation_rate_points'; summary: string };
  effort: Effort;
  /** expectedEffect.value / effort cost (low 1, medium 2, high 3): the ranking key. */
  priority: number;
  evidence: Record<string, unknown>;
}

/** The latest audit of each of a brand's pages, as `pageFindings` needs it. */
export interface AuditedPage {
  url: string;
  score: number;
  recommendations: PageRecommendation[];
}

/** One prompt whose answers cite competitors' pages and none of the brand's (analysis's citationGapFacts). */
export interface AnswerFinding {
  query: string;
  /** Answers to it in the window citing a competitor and not the brand. */
  answers: number;
  providers: string[];
  competitorPages: { url: string; domain: string; competitor: string; citations: number }[];
}

/**
 * Page findings grouped by what to do: a fix that many pages need is one recommendation whose
 * effect is the brand's average page score gain (points gained over every audited page / pages).
 */
export function pageFindings(pages: readonly AuditedPage[]): BrandRecommendation[] {
  const groups = new Map<string, { first: PageRecommendation; pages: { url: string; score: number; expectedEffect: number; finding: unknown }[] }>();
  for (const p of pages) {
    for (const r of p.recommendations) {
      const g = groups.get(r.code) ?? { first: r, pages: [] };
      g.pages.push({ url: p.url, score: p.score, expectedEffect: r.expectedEffect, finding: r.evidence.finding });
      groups.set(r.code, g);
    }
  }
  return [...groups].map(([code, g]) => {
    const total = g.pages.reduce((a, p) => a + p.expectedEffect, 0);
    const value = Math.round((total / Math.max(1, pages.length)) * 10) / 10;
    g.pages.sort((a, b) => b.expectedEffect - a.expectedEffect);
    return {
      id: `pages:${code}`,
      source: 'pages' as const,
      code,
      component: g.first.component,
      title: g.first.title,
      action: g.first.action,
      expectedEffect: { value, unit: 'page_score_points' as const, summary: `+${value} points of the average page score (${g.pages.length} of ${pages.length} audited page(s), up to +${g.pages[0].expectedEffect} on one page)` },
      effort: g.first.effort,
      priority: Math.round((value / EFFORT_COST[g.first.effort]) * 100) / 100,
      evidence: { pagesAffected: g.pages.length, pagesAudited: pages.length, pages: g.pages.slice(0, 10) },
    };
  });
}

/**
 * Answer findings: each prompt whose answers cite a competitor's page and none of the brand's. Its
 * effect is what the brand's citation rate would gain if those answers cited it too: such answers
 * / the brand's answers with at least one citation in the window, in percentage points.
 */
export function answerFindings(findings: readonly AnswerFinding[], answersWithCitations: number): BrandRecommendation[] {
  return findings.map((f) => {
    const value = answersWithCitations ? Math.round(((100 * f.answers) / answersWithCitations) * 10) / 10 : 0;
    const top = f.competitorPages.slice(0, 5);
    return {
      id: `answers:${f.query}`,
      source: 'answers' as const,
      code: 'earn_citation',
      component: 'citations' as const,
      title: `${titleOf('earn_citation')}: “${f.query}”`,
      action: `Publish or improve a page that answers “${f.query}” directly (answer first, figures, sources, fitting schema); engines cite ${top.map((p) => p.domain).filter((d, k, a) => a.indexOf(d) === k).join(', ')} for it instead`,
      expectedEffect: { value, unit: 'citation_rate_points' as const, summary: `up to +${value} points of citation rate (${f.answers} of ${answersWithCitations} answers with citations)` },
      effort: 'medium' as const,
      priority: Math.round((value / EFFORT_COST.medium) * 100) / 100,
      evidence: { query: f.query, answers: f.answers, providers: f.providers, competitorPages: top },
    };
  });
}

/** Both kinds together, best first: priority, then effect. */
export function rankRecommendations(items: BrandRecommendation[]): BrandRecommendation[] {
  return [...items].sort((a, b) => b.priority - a.priority || b.expectedEffect.value - a.expectedEffect.value || a.id.localeCompare(b.id));
}
