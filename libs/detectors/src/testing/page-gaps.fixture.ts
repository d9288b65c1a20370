import type { PageCheck, PageComponent, PageHistory, PageResult } from '../domain/page-history';

/** Test data: a page's scored audit, shaped as page audits keep it. */
export function pageResult(p: { n: number; url?: string; score: number; day: string; schema?: 'ok' | 'missing' | 'broken' | 'mismatch' | 'partial'; kinds?: string[] }): PageResult {
  const schema = p.schema ?? 'ok';
  const checks: PageCheck[] = [
    { code: 'add_json_ld', max: 0.3, got: schema === 'missing' ? 0 : 0.3, finding: schema === 'missing' ? 'no JSON-LD structured data' : '1 JSON-LD block(s)', action: 'Describe the page in JSON-LD' },
    { code: 'fix_json_ld', max: 0.2, got: schema === 'broken' ? 0 : 0.2, finding: schema === 'broken' ? '1 of 1 JSON-LD block(s) do not parse' : 'every JSON-LD block parses', action: 'Fix the JSON-LD syntax' },
    { code: 'add_schema_type', max: 0.3, got: schema === 'mismatch' || schema === 'missing' ? 0 : schema === 'partial' ? 0.15 : 0.3, finding: schema === 'mismatch' ? 'the page looks like product; its types are WebPage; missing Product' : 'types fit', action: 'Add Product markup' },
    { code: 'complete_properties', max: 0.2, got: 0.1, finding: 'Product lacks offers', action: 'Add offers' },
  ];
  const value = checks.reduce((a, c) => a + c.got, 0);
  const components: PageComponent[] = [
    { component: 'structuredData', weight: 20, value, points: Math.round(20 * value * 10) / 10, checks },
    { component: 'answerFirst', weight: 15, value: 0.2, points: 3, checks: [{ code: 'answer_first', max: 1, got: 0.2, finding: 'the opening is a slogan', action: 'Open with the answer' }] },
    { component: 'statistics', weight: 10, value: 0, points: 0, checks: [{ code: 'add_statistics', max: 1, got: 0, finding: 'no figures', action: 'Add figures with sources' }] },
    { component: 'metadata', weight: 10, value: 1, points: 10, checks: [] },
  ];
  return { resultId: p.n, auditId: 100 + p.n, url: p.url ?? 'https://acme.example/pricing', score: p.score, components, kinds: p.kinds ?? ['product'], auditedAt: `${p.day}T10:00:00.000Z` };
}

export const history = (...results: PageResult[]): PageHistory => ({ url: results[0].url, results });
