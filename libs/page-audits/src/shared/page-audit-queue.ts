import type { QueueDefinition } from '@libs/queue';
import type { PageAuditsConfig } from '../page-audits.config';

/** A job of the page-audit queue: plan an audit (its pages, from the request or the sitemap), or audit one of its pages. */
export type PageAuditJob = { kind: 'plan'; auditId: number } | { kind: 'page'; auditId: number; n: number };

/** Job ids make enqueueing idempotent: a plan or a page is queued once however often it is asked for. */
export const pageAuditJobId = (job: PageAuditJob) => (job.kind === 'plan' ? `page-audit-${job.auditId}` : `page-audit-${job.auditId}-${job.n}`);

/**
 * One queue for every page audit. Fetch failures are recorded, not thrown, so a job fails only on
 * the service's own trouble (the database, Redis) and is then retried; a dead worker's jobs come
 * back after their lock lapses.
 */
export function pageAuditQueue(config: Pick<PageAuditsConfig, 'concurrency'>): QueueDefinition {
  return {
    name: '{page-audits}',
    concurrency: config.concurrency,
    lockDuration: 30_000,
    stalledInterval: 10_000,
    maxStalledCount: 5,
    defaultJobOptions: { attempts: 5, backoff: { type: 'exponential', delay: 1000 } },
    removeOnComplete: { age: 3600, count: 10_000 },
    removeOnFail: { age: 86_400 },
  };
}
