export const EXAMPLE = {
  data: [
    {
      url: 'https://acme-crm.com/pricing',
      auditId: 42,
      auditedAt: '2026-11-25T10:02:11.000Z',
      status: 'scored',
      httpStatus: 200,
      score: 71,
      kinds: ['product'],
      components: [{ component: 'structuredData', weight: 20, value: 0.5, points: 10, checks: [{ code: 'fix_json_ld', max: 0.2, got: 0, finding: '1 of 1 JSON-LD block(s) do not parse: block 1: Expected double-quoted property name in JSON at position 77' }] }],
      recommendations: [{ code: 'fix_json_ld', component: 'structuredData', title: 'Fix JSON-LD that does not parse', action: 'Fix the JSON-LD syntax (a broken block is ignored whole by every engine)', expectedEffect: 4, effort: 'low', evidence: { finding: '1 of 1 JSON-LD block(s) do not parse' } }],
      botAccess: { robots: 'found', agents: [{ agent: 'GPTBot', operator: 'OpenAI', category: 'training', allowed: false }] },
      history: [
        { auditId: 42, auditedAt: '2026-11-25T10:02:11.000Z', score: 71 },
        { auditId: 17, auditedAt: '2026-10-25T09:12:40.000Z', score: 64 },
      ],
    },
  ],
  meta: { total: 1, limit: 50, offset: 0, hasMore: false },
};
