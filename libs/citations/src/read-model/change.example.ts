import type { ChangeRecord } from './change-record';

/** A change record (GET /changes, and the `change.detected` webhook's data), as the changes test's fixture produces it. */
export const CHANGE_EXAMPLE: ChangeRecord = {
  id: '812-7:dropped_from_top3:brand-7',
  brandId: 7,
  changeType: 'dropped_from_top3',
  severity: 'high',
  provider: 'chatgpt',
  prompt: { id: 31, query: 'best crm for small business' },
  entity: { id: 'brand-7', name: 'Acme', kind: 'brand' },
  domain: null,
  before: { mentioned: true, rank: 2, sentiment: 'positive' },
  after: { mentioned: true, rank: 5, sentiment: 'neutral' },
  previousAnswer: { id: '804-7', askedAt: '2025-11-23T06:00:41.120Z' },
  answer: { id: '812-7', askedAt: '2025-11-24T06:00:38.902Z' },
  detectedAt: '2025-11-24T06:00:38.902Z',
};
