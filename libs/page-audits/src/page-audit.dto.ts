import { ApiProperty } from '@nestjs/swagger';
import { PAGE_FAILURE_CODES } from './domain';
import type { PageAudit } from './read-model/page-audits.repository';

/** How the API describes a reason code (audits and pages). */
export const REASON_CODE_DESCRIPTION = `Why, as a stable code: ${PAGE_FAILURE_CODES.map((c) => `\`${c}\``).join(', ')}. The reason beside it is a sentence for people; neither names a resolved host or an address.`;

/** A page audit as the API shows it (the request and its progress). */
export class PageAuditDto {
  @ApiProperty({ type: 'integer', example: 42 }) id!: number;
  @ApiProperty({ type: 'integer', example: 1 }) brandId!: number;
  @ApiProperty({ enum: ['urls', 'sitemap'], example: 'sitemap' }) source!: 'urls' | 'sitemap';
  @ApiProperty({ type: 'string', nullable: true, example: 'https://acme-crm.com/sitemap.xml' }) sitemapUrl!: string | null;
  @ApiProperty({ enum: ['queued', 'running', 'completed', 'failed'], example: 'running' }) status!: string;
  @ApiProperty({ type: 'integer', description: 'Pages in the audit (known once planned)', example: 120 }) pagesTotal!: number;
  @ApiProperty({ type: 'integer', description: 'Pages finished, failed or skipped included', example: 37 }) pagesDone!: number;
  @ApiProperty({ type: 'integer', description: 'Pages that failed or were skipped (each with its reason)', example: 2 }) pagesFailed!: number;
  @ApiProperty({ type: 'integer', description: 'Sitemap URLs beyond the 1,000 an audit covers', example: 0 }) urlsDropped!: number;
  @ApiProperty({ type: 'integer', description: "Sitemap pages beyond what the organisation's page-audit quota allowed (not audited)", example: 0 }) pagesOverQuota!: number;
  @ApiProperty({ type: 'string', nullable: true, description: 'Why the audit failed (e.g. the sitemap is not XML)', example: null }) reason!: string | null;
  @ApiProperty({ type: 'string', nullable: true, description: REASON_CODE_DESCRIPTION, example: null }) reasonCode!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) startedAt!: string | null;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) completedAt!: string | null;
}

export const pageAuditDto = (a: PageAudit): PageAuditDto => ({
  id: a.id,
  brandId: a.brandId,
  source: a.source,
  sitemapUrl: a.sitemapUrl,
  status: a.status,
  pagesTotal: a.source === 'urls' && a.status === 'queued' ? a.requestedUrls.length : a.pagesTotal,
  pagesDone: a.pagesDone,
  pagesFailed: a.pagesFailed,
  urlsDropped: a.urlsDropped,
  pagesOverQuota: a.pagesOverQuota,
  reason: a.reason,
  reasonCode: a.reasonCode,
  createdAt: a.createdAt,
  startedAt: a.startedAt,
  completedAt: a.completedAt,
});

export class PageAuditResponse {
  @ApiProperty({ type: PageAuditDto }) data!: PageAuditDto;
}
