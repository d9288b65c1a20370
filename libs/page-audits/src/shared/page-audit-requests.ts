import { Injectable } from '@nestjs/common';
import { InjectConfig } from '@libs/config';
import { ApiError, type FieldProblem } from '@libs/http';
import { Queues } from '@libs/queue';
import { OrganizationQuotas, type QuotaReservation } from '@libs/rate-limit';
import { brandCoversHost, type Brand } from '@libs/tenancy';
import { normaliseUrl, pageFailure } from '../domain';
import { PAGE_AUDITS_CONFIG, type PageAuditsConfig } from '../page-audits.config';
import { PageAuditsRepository, type PageAudit } from '../read-model/page-audits.repository';
import { pageAuditJobId, pageAuditQueue, type PageAuditJob } from './page-audit-queue';

/** What to audit: page URLs (1 to 1,000, checked by the caller), or a sitemap (true: the brand's /sitemap.xml). */
export type AuditTarget = { urls: string[] } | { sitemap: true | string };

/** The brand's domains as a 400 message names them. */
const domainsOf = (brand: Brand) => [brand.domain, ...brand.extraDomains].join(', ');

/**
 * Starts a page audit (the API's POST and the CLI): checks that every URL is on the brand's
 * domains (400 otherwise), takes the pages from the organisation's page quota (429 when it cannot
 * take them; a sitemap's pages are taken when the worker has read it, so it needs room for one
 * now), records the audit and queues its plan job. If the queue cannot take it, the pages are
 * given back, the audit is marked failed and the caller gets 503.
 */
@Injectable()
export class PageAuditRequests {
  constructor(
    private readonly audits: PageAuditsRepository,
    private readonly queues: Queues,
    private readonly quotas: OrganizationQuotas,
    @InjectConfig(PAGE_AUDITS_CONFIG) private readonly config: PageAuditsConfig,
  ) {}

  async start(brand: Brand, target: AuditTarget, requestedBy: string): Promise<PageAudit> {
    const urls = 'urls' in target ? [...new Set(target.urls.map(normaliseUrl))] : [];
    const sitemapUrl = 'sitemap' in target ? (target.sitemap === true ? `https://${brand.domain}/sitemap.xml` : normaliseUrl(target.sitemap)) : null;
    const outside: FieldProblem[] = [];
    if ('urls' in target) {
      target.urls.forEach((u, k) => {
        if (!brandCoversHost(brand, new URL(u).hostname)) outside.push({ field: `urls[${k}]`, message: `urls[${k}] must be on one of the brand's domains (${domainsOf(brand)}) or a subdomain of one` });
      });
    } else if (!brandCoversHost(brand, new URL(sitemapUrl!).hostname)) {
      outside.push({ field: 'sitemap', message: `sitemap must be on one of the brand's domains (${domainsOf(brand)}) or a subdomain of one` });
    }
    if (outside.length) throw ApiError.validation(outside, "Page audits fetch the brand's own pages only");
    let reservation: QuotaReservation | null = null;
    if (urls.length) reservation = await this.quotas.reserveOrRefuse(brand.organizationId, 'page_audit_pages', urls.length);
    else await this.quotas.assertRoom(brand.organizationId, 'page_audit_pages');
    let audit: PageAudit;
    try {
      audit = await this.audits.create({ organizationId: brand.organizationId, clientId: brand.clientId, brandId: brand.id, source: sitemapUrl ? 'sitemap' : 'urls', sitemapUrl, urls, requestedBy });
    } catch (error) {
      if (reservation) await this.quotas.refund(reservation);
      throw error;
    }
    const job: PageAuditJob = { kind: 'plan', auditId: audit.id };
    try {
      await this.queues.producer<PageAuditJob>(pageAuditQueue(this.config)).queue.add('plan', job, { jobId: pageAuditJobId(job) });
    } catch {
      if (reservation) await this.quotas.refund(reservation);
      await this.audits.fail(audit.id, pageFailure.queueUnavailable());
      throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'The audit could not be queued; try again');
    }
    return audit;
  }
}
