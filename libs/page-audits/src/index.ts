export * from './domain';
export * from './page-audits.module';
export { PAGE_AUDITS_CONFIG, type PageAuditsConfig } from './page-audits.config';
export { PageAuditsRepository, type PageAudit, type PageResult } from './read-model/page-audits.repository';
export { PageAuditRequests, type AuditTarget } from './shared/page-audit-requests';
export { pageAuditDto } from './page-audit.dto';
export { pageAuditJobId, pageAuditQueue, type PageAuditJob } from './shared/page-audit-queue';
export { CreatePageAudits1763700011000 } from './migrations/1763700011000-create-page-audits';
export { AddPageAuditReasonCodes1763700013500 } from './migrations/1763700013500-add-page-audit-reason-codes';
// The read use cases (each `read(principal, params)` returns the response the HTTP route sends).
export { ListGeoPages } from './list-geo-pages/list-geo-pages.query';
export { GetPageAudit } from './get-page-audit/get-page-audit.query';
export { GeoRecommendations } from './geo-recommendations/geo-recommendations.query';
export * from './read-model/page-history.facts';
