import { Injectable } from '@nestjs/common';
import { InjectConfig } from '@libs/config';
import { ApiError } from '@libs/http';
import { Queues } from '@libs/queue';
import type { Brand } from '@libs/tenancy';
import { normaliseUrl } from '../domain';
import { PAGE_AUDITS_CONFIG, type PageAuditsConfig } from '../page-audits.config';
import { PageAuditsRepository, type PageAudit } from '../read-model/page-audits.repository';
import { pageAuditJobId, pageAuditQueue, type PageAuditJob } from './page-audit-queue';

/** What to audit: page URLs (1 to 1,000, checked by the caller), or a sitemap (true: the brand's /sitemap.xml). */
export type AuditTarget = { urls: string[] } | { sitemap: true | string };

/**
 * Starts a page audit (the API's POST and the CLI): records it and queues its plan job. If the
 * queue cannot take it, the audit is marked failed and the caller gets 503.
 */
@Injectable()
export class PageAuditRequests {
  constructor(
    private readonly audits: PageAuditsRepository,
    private readonly queues: Queues,
    @InjectConfig(PAGE_AUDITS_CONFIG) private readonly config: PageAuditsConfig,
  ) {}

  async start(brand: Brand, target: AuditTarget, requestedBy: string): Promise<PageAudit> {
    const urls = 'urls' in target ? [...new Set(target.urls.map(normaliseUrl))] : [];
    const sitemapUrl = 'sitemap' in target ? (target.sitemap === true ? `https://${brand.domain}/sitemap.xml` : normaliseUrl(target.sitemap)) : null;
    const audit = await this.audits.create({ organizationId: brand.organizationId, clientId: brand.clientId, brandId: brand.id, source: sitemapUrl ? 'sitemap' : 'urls', sitemapUrl, urls, requestedBy });
    const job: PageAuditJob = { kind: 'plan', auditId: audit.id };
    try {
      await this.queues.producer<PageAuditJob>(pageAuditQueue(this.config)).queue.add('plan', job, { jobId: pageAuditJobId(job) });
    } catch {
      await this.audits.fail(audit.id, 'the audit could not be queued');
      throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'The audit could not be queued; try again');
    }
    return audit;
  }
}
