import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiCreatedResponse, ApiNotFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { ParseIdPipe, type BodyRouteConfig } from '@libs/http';
import { BrandAccess } from '@libs/tenancy';
import { MAX_AUDIT_URLS } from '../domain';
import { pageAuditDto, PageAuditResponse } from '../page-audit.dto';
import { PageAuditRequests } from '../shared/page-audit-requests';
import { RequestPageAuditRequest } from './request-page-audit.request.dto';

/** 1,000 URLs of up to 2,048 characters fit; the member budget leaves room for the body's keys. */
const AUDIT_ROUTE: BodyRouteConfig = { bodyLimit: 2_300_000, bodyMaxKeys: MAX_AUDIT_URLS + 10 };

export const PAGE_AUDIT_EXAMPLE = {
  data: { id: 42, brandId: 1, source: 'sitemap', sitemapUrl: 'https://acme-crm.com/sitemap.xml', status: 'queued', pagesTotal: 0, pagesDone: 0, pagesFailed: 0, urlsDropped: 0, pagesOverQuota: 0, reason: null, reasonCode: null, createdAt: '2026-11-25T10:00:00.000Z', startedAt: null, completedAt: null },
};

@ApiTags('GEO')
@Controller('api/v1/brands/:id/page-audits')
export class RequestPageAuditController {
  constructor(
    private readonly brands: BrandAccess,
    private readonly requests: PageAuditRequests,
  ) {}

  @Post()
  @HttpCode(201)
  @RouteConfig(AUDIT_ROUTE)
  @RequireScope('write:audits')
  @ApiOperation({
    operationId: 'page_audits_create',
    summary: "Audit a brand's pages for generative-engine readiness: the URLs given, or the pages its sitemap lists",
    description:
      'Runs in the background (follow it at GET /api/v1/brands/{id}/page-audits/{auditId}); results feed GET /api/v1/geo/pages and /api/v1/geo/recommendations. Only the brand’s own pages are audited: every URL (and the sitemap, and every redirect) must be on one of its domains or extra domains or a subdomain of one (400 otherwise). The pages count against the organisation’s page-audit quota per UTC day and month, by tier (429 RATE_LIMITED with Retry-After when it cannot take them; a sitemap’s pages are counted when it is read, those beyond the quota are left out and counted in pagesOverQuota). Pages are fetched with the service’s own user agent, honouring robots.txt, at most 2 requests a second per host, 5 MB and 15 s per page.',
  })
  @ApiCreatedResponse({ type: PageAuditResponse, example: PAGE_AUDIT_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id' })
  async create(@CurrentPrincipal() p: Principal, @Param('id', ParseIdPipe) id: number, @Body() body: RequestPageAuditRequest): Promise<PageAuditResponse> {
    const brand = await this.brands.resolve(p, id);
    const audit = await this.requests.start(brand, body.urls ? { urls: body.urls } : { sitemap: body.sitemap! }, p.subject);
    return { data: pageAuditDto(audit) };
  }
}
