export const EXAMPLE = {
  data: {
    id: 42,
    brandId: 1,
    source: 'urls',
    sitemapUrl: null,
    status: 'completed',
    pagesTotal: 3,
    pagesDone: 3,
    pagesFailed: 1,
    urlsDropped: 0,
    pagesOverQuota: 0,
    reason: null,
    reasonCode: null,
    createdAt: '2026-11-25T10:00:00.000Z',
    startedAt: '2026-11-25T10:00:00.120Z',
    completedAt: '2026-11-25T10:00:02.300Z',
    pages: [
      { n: 0, url: 'https://acme-crm.com/pricing', status: 'scored', reason: null, reasonCode: null, httpStatus: 200, finalUrl: 'https://acme-crm.com/pricing', score: 78, fetchedAt: '2026-11-25T10:00:00.900Z' },
      { n: 1, url: 'https://acme-crm.com/features', status: 'not_modified', reason: null, reasonCode: null, httpStatus: 304, finalUrl: 'https://acme-crm.com/features', score: 64, fetchedAt: '2026-11-25T10:00:01.400Z' },
      { n: 2, url: 'https://acme-crm.com/whitepaper', status: 'failed', reason: 'not an HTML page (Content-Type application/pdf)', reasonCode: 'not_html', httpStatus: 200, finalUrl: 'https://acme-crm.com/whitepaper', score: null, fetchedAt: '2026-11-25T10:00:01.900Z' },
    ],
  },
};
