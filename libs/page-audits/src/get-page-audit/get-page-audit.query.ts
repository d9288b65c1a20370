import { Injectable } from '@nestjs/common';
import { BrandAccess } from '@libs/tenancy';
import { type Principal } from '@libs/auth';
import { ApiError } from '@libs/http';
import { pageAuditDto } from '../page-audit.dto';
import { PageAuditsRepository } from '../read-model/page-audits.repository';
import { PageAuditDetailResponse } from './get-page-audit.response.dto';

/** The read behind `GET /api/v1/brands/:id/page-audits/:auditId`: its controller, the MCP server and other apps call `read`. */
@Injectable()
export class GetPageAudit {
  constructor(
    private readonly brands: BrandAccess,
    private readonly audits: PageAuditsRepository,
  ) {}

  async read(p: Principal, id: number, auditId: number): Promise<PageAuditDetailResponse> {
    const brand = await this.brands.scopeOf(p, { brandId: id });
    const audit = await this.audits.auditOfBrand(brand.id, auditId);
    if (!audit) throw ApiError.notFound(`Page audit ${auditId}`);
    const pages = (await this.audits.results(audit.id)).map((r) => ({ n: r.n, url: r.url, status: r.status, reason: r.reason, reasonCode: r.reasonCode, httpStatus: r.httpStatus, finalUrl: r.finalUrl, score: r.score, fetchedAt: r.fetchedAt }));
    return { data: { ...pageAuditDto(audit), pages } };
  }
}
