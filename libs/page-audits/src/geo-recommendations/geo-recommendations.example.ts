export const EXAMPLE = {
  data: [
    {
      id: 'answers:best crm for agencies',
      source: 'answers',
      code: 'earn_citation',
      component: 'citations',
      title: 'Get cited where competitors are: “best crm for agencies”',
      action: 'Publish or improve a page that answers “best crm for agencies” directly (answer first, figures, sources, fitting schema); engines cite globex.com for it instead',
      expectedEffect: { value: 12.5, unit: 'citation_rate_points', summary: 'up to +12.5 points of citation rate (5 of 40 answers with citations)' },
      effort: 'medium',
      priority: 6.25,
      evidence: { query: 'best crm for agencies', answers: 5, providers: ['chatgpt', 'perplexity'], competitorPages: [{ url: 'https://globex.com/crm-for-agencies', domain: 'globex.com', competitor: 'Globex', citations: 4 }] },
    },
    {
      id: 'pages:fix_json_ld',
      source: 'pages',
      code: 'fix_json_ld',
      component: 'structuredData',
      title: 'Fix JSON-LD that does not parse',
      action: 'Fix the JSON-LD syntax (a broken block is ignored whole by every engine)',
      expectedEffect: { value: 1.3, unit: 'page_score_points', summary: '+1.3 points of the average page score (1 of 3 audited page(s), up to +4 on one page)' },
      effort: 'low',
      priority: 1.3,
      evidence: { pagesAffected: 1, pagesAudited: 3, pages: [{ url: 'https://acme-crm.com/pricing', score: 71, expectedEffect: 4 }] },
    },
  ],
};
