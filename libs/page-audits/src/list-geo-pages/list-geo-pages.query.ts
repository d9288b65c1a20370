import { Injectable } from '@nestjs/common';
import { BrandAccess } from '@libs/tenancy';
import { type Principal } from '@libs/auth';
import { page, sortColumn } from '@libs/http';
import { GeoPageDto } from '../geo-page.dto';
import { PageAuditsRepository } from '../read-model/page-audits.repository';
import { ListGeoPagesQuery, PAGE_SORTS } from './list-geo-pages.request.dto';
import { GeoPageListResponse } from './list-geo-pages.response.dto';

/** The read behind `GET /api/v1/geo/pages`: its controller, the MCP server and other apps call `read`. */
@Injectable()
export class ListGeoPages {
  constructor(
    private readonly scope: BrandAccess,
    private readonly audits: PageAuditsRepository,
  ) {}

  async read(p: Principal, q: ListGeoPagesQuery): Promise<GeoPageListResponse> {
    const brand = await this.scope.scopeOf(p, q);
    const { rows, total } = await this.audits.pages(brand.id, { limit: q.limit, offset: q.offset, order: q.order, sortColumn: sortColumn(q.sort, PAGE_SORTS, 'score') });
    const history = await this.audits.history(brand.id, rows.map((r) => r.url));
    const data = rows.map(
      (r): GeoPageDto => ({
        url: r.url,
        auditId: r.auditId,
        auditedAt: r.fetchedAt!,
        status: r.status,
        httpStatus: r.httpStatus,
        score: r.score!,
        kinds: r.kinds ?? [],
        components: (r.components ?? []).map((c) => ({ component: c.component, weight: c.weight, value: c.value, points: c.points, checks: c.checks.map((k) => ({ code: k.code, max: k.max, got: Math.round(k.got * 1000) / 1000, finding: k.finding })) })),
        recommendations: r.recommendations ?? [],
        botAccess: r.botAccess ?? { robots: 'missing', agents: [] },
        history: history.get(r.url) ?? [],
      }),
    );
    return page(data, total, q);
  }
}
