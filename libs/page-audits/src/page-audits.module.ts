import { Module } from '@nestjs/common';
import { QueueModule } from '@libs/queue';
import { QuotaModule } from '@libs/rate-limit';
import { TenancyModule } from '@libs/tenancy';
import { GeoRecommendationsController } from './geo-recommendations/geo-recommendations.http.controller';
import { GetPageAuditController } from './get-page-audit/get-page-audit.http.controller';
import { ListGeoPagesController } from './list-geo-pages/list-geo-pages.http.controller';
import { PageAuditsRepository } from './read-model/page-audits.repository';
import { RequestPageAuditController } from './request-page-audit/request-page-audit.http.controller';
import { PageAuditProcessor } from './run-page-audits/page-audit.processor';
import { PageAuditRequests } from './shared/page-audit-requests';
import { ListGeoPages } from './list-geo-pages/list-geo-pages.query';
import { GetPageAudit } from './get-page-audit/get-page-audit.query';
import { GeoRecommendations } from './geo-recommendations/geo-recommendations.query';

/** The read use cases, each one call from a controller, the MCP server or any app (exported). */
const READS = [ListGeoPages, GetPageAudit, GeoRecommendations];

/** Page audits (DESIGN §13.5), the API side: request an audit, follow it, geo/pages and geo/recommendations. */
@Module({
  imports: [TenancyModule, QueueModule, QuotaModule],
  controllers: [RequestPageAuditController, GetPageAuditController, ListGeoPagesController, GeoRecommendationsController],
  providers: [...READS, PageAuditsRepository, PageAuditRequests],
  exports: [...READS, PageAuditsRepository, PageAuditRequests],
})
export class PageAuditsModule {}

/** The worker side: the `{page-audits}` queue (plan an audit, audit each page): brands' domains from tenancy, a sitemap's pages within the quota. */
@Module({
  imports: [TenancyModule, QueueModule, QuotaModule],
  providers: [PageAuditsRepository, PageAuditProcessor],
})
export class PageAuditsWorkerModule {}
