/** The opportunity lifecycle (DESIGN §3). */
export const STATUSES = ['detected', 'triaged', 'assigned', 'in_progress', 'fix_deployed', 'verifying', 'resolved', 'regressed', 'dismissed'] as const;
export type Status = (typeof STATUSES)[number];

export const TERMINAL_STATUSES: readonly Status[] = ['resolved', 'dismissed'];

export const ALLOWED_TRANSITIONS: Readonly<Record<Status, readonly Status[]>> = {
  detected: ['triaged', 'assigned', 'dismissed'],
  triaged: ['assigned', 'dismissed'],
  assigned: ['in_progress', 'triaged', 'dismissed'],
  in_progress: ['fix_deployed', 'assigned', 'dismissed'],
  fix_deployed: ['verifying', 'in_progress'],
  verifying: ['resolved', 'regressed'],
  regressed: ['triaged', 'assigned', 'in_progress', 'dismissed'],
  resolved: [],
  dismissed: [],
};

export const TYPES = [
  'misinformation',
  'competitor_gap',
  'missing_citation',
  'sentiment_drop',
  'stability_alert',
  'sov_drop',
  'dropped_from_top3',
  'readiness_gap',
  'schema_gap',
  'seo_task',
  'crawl_block',
  'hallucination_cluster',
] as const;
export type OpportunityType = (typeof TYPES)[number];

export const SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];

export function isTerminal(status: Status): boolean {
  return TERMINAL_STATUSES.includes(status);
}

export function canTransition(from: Status, to: Status): boolean {
  return ALLOWED_TRANSITIONS[from].includes(to);
}

export const isStatus = (v: string): v is Status => (STATUSES as readonly string[]).includes(v);
export const isType = (v: string): v is OpportunityType => (TYPES as readonly string[]).includes(v);
export const isSeverity = (v: string): v is Severity => (SEVERITIES as readonly string[]).includes(v);
