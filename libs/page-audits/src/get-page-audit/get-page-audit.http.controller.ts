import { Controller, Get, Param } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { ApiError, ParseIdPipe } from '@libs/http';
import { BrandAccess } from '@libs/tenancy';
import { pageAuditDto, PageAuditDto, REASON_CODE_DESCRIPTION } from '../page-audit.dto';
import { PageAuditsRepository } from '../read-model/page-audits.repository';

export class AuditedPageDto {
  @ApiProperty({ type: 'integer', example: 0 }) n!: number;
  @ApiProperty({ example: 'https://acme-crm.com/pricing' }) url!: string;
  @ApiProperty({ enum: ['pending', 'scored', 'not_modified', 'failed', 'skipped'], description: 'not_modified: the site answered 304 to the previous audit’s validators and the page was scored again from what that audit read; skipped: robots.txt disallows our agent' }) status!: string;
  @ApiProperty({ type: 'string', nullable: true, example: null, description: 'Why the page failed or was skipped' }) reason!: string | null;
  @ApiProperty({ type: 'string', nullable: true, example: null, description: REASON_CODE_DESCRIPTION }) reasonCode!: string | null;
  @ApiProperty({ type: 'integer', nullable: true, example: 200 }) httpStatus!: number | null;
  @ApiProperty({ type: 'string', nullable: true, description: 'Where it was fetched from after redirects' }) finalUrl!: string | null;
  @ApiProperty({ type: 'integer', nullable: true, minimum: 0, maximum: 100, example: 78 }) score!: number | null;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) fetchedAt!: string | null;
}

export class PageAuditDetailDto extends PageAuditDto {
  @ApiProperty({ type: [AuditedPageDto] }) pages!: AuditedPageDto[];
}

export class PageAuditDetailResponse {
  @ApiProperty({ type: PageAuditDetailDto }) data!: PageAuditDetailDto;
}

const EXAMPLE = {
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

@ApiTags('GEO')
@Controller('api/v1/brands/:id/page-audits')
export class GetPageAuditController {
  constructor(
    private readonly brands: BrandAccess,
    private readonly audits: PageAuditsRepository,
  ) {}

  @Get(':auditId')
  @RequireScope('read:visibility')
  @ApiOperation({ operationId: 'page_audits_get', summary: 'One page audit: its progress and each page’s outcome (score, or the reason it failed)' })
  @ApiOkResponse({ type: PageAuditDetailResponse, example: EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id, or the brand has no such audit' })
  async get(@CurrentPrincipal() p: Principal, @Param('id', ParseIdPipe) id: number, @Param('auditId', ParseIdPipe) auditId: number): Promise<PageAuditDetailResponse> {
    const brand = await this.brands.resolve(p, id);
    const audit = await this.audits.auditOfBrand(brand.id, auditId);
    if (!audit) throw ApiError.notFound(`Page audit ${auditId}`);
    const pages = (await this.audits.results(audit.id)).map((r) => ({ n: r.n, url: r.url, status: r.status, reason: r.reason, reasonCode: r.reasonCode, httpStatus: r.httpStatus, finalUrl: r.finalUrl, score: r.score, fetchedAt: r.fetchedAt }));
    return { data: { ...pageAuditDto(audit), pages } };
  }
}
