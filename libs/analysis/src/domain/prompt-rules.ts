/** What a tracked prompt may be (DESIGN §13.1): the rules the API and the CLI share. */

export const MAX_QUERY_LENGTH = 1000;
export const MAX_ACTIVE_PROMPTS = 500;
export const MAX_TOPIC_LENGTH = 200;
export const MAX_TAGS = 20;
export const MAX_TAG_LENGTH = 50;

/** How often a brand's active prompts are asked. */
export const SCHEDULES = ['daily', 'weekly', 'off'] as const;
export type Schedule = (typeof SCHEDULES)[number];
export const DEFAULT_SCHEDULE: Schedule = 'daily';

export function isSchedule(value: unknown): value is Schedule {
  return typeof value === 'string' && (SCHEDULES as readonly string[]).includes(value);
}

/**
 * A query as it is stored and asked: surrounding white space removed, runs of white space inside
 * (new lines included) made one space. Two prompts of a brand are the same when these are equal,
 * ignoring case.
 */
export function normaliseQuery(query: string): string {
  return query.trim().replace(/\s+/g, ' ');
}

/** Why a query cannot be tracked, or null. */
export function queryProblem(query: unknown): string | null {
  if (typeof query !== 'string') return 'query must be a string';
  const q = normaliseQuery(query);
  if (q.length === 0) return 'query must not be empty';
  if (q.length > MAX_QUERY_LENGTH) return `query must be at most ${MAX_QUERY_LENGTH} characters`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(q)) return 'query must not contain control characters';
  return null;
}

/** Tags as stored: trimmed, distinct, in the order given. */
export function normaliseTags(tags: readonly string[]): string[] {
  return [...new Set(tags.map((t) => t.trim()))];
}

/** Why a tag list cannot be stored, or null. */
export function tagsProblem(tags: unknown): string | null {
  if (!Array.isArray(tags)) return 'tags must be an array of strings';
  if (tags.some((t) => typeof t !== 'string')) return 'tags must be an array of strings';
  const clean = normaliseTags(tags as string[]);
  if (clean.length > MAX_TAGS) return `tags must list at most ${MAX_TAGS} tags`;
  if (clean.some((t) => t.length === 0 || t.length > MAX_TAG_LENGTH)) return `each tag must be 1 to ${MAX_TAG_LENGTH} characters`;
  return null;
}
