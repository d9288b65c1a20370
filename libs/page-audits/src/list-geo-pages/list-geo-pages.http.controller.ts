import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { page, PageOf, sortColumn } from '@libs/http';
import { GeoPageDto } from '../geo-page.dto';
import { PageAuditsRepository } from '../read-model/page-audits.repository';
import { BrandScope } from '../shared/brand-scope';
import { ListGeoPagesQuery, PAGE_SORTS } from './list-geo-pages.request.dto';

export class GeoPageListResponse extends PageOf(GeoPageDto) {}

const EXAMPLE = {
  data: [
    {
      url: 'https://acme-crm.com/pricing',
      auditId: 42,
      auditedAt: '2026-11-25T10:02:11.000Z',
      status: 'scored',
      httpStatus: 200,
      score: 71,
      kinds: ['product'],
      components: [{ component: 'structuredData', weight: 20, value: 0.5, points: 10, checks: [{ code: 'fix_json_ld', max: 0.2, got: 0, finding: '1 of 1 JSON-LD block(s) do not parse: block 1: Expected double-quoted property name in JSON at position 77' }] }],
      recommendations: [{ code: 'fix_json_ld', component: 'structuredData', title: 'Fix JSON-LD that does not parse', action: 'Fix the JSON-LD syntax (a broken block is ignored whole by every engine)', expectedEffect: 4, effort: 'low', evidence: { finding: '1 of 1 JSON-LD block(s) do not parse' } }],
      botAccess: { robots: 'found', agents: [{ agent: 'GPTBot', operator: 'OpenAI', category: 'training', allowed: false }] },
      history: [
        { auditId: 42, auditedAt: '2026-11-25T10:02:11.000Z', score: 71 },
        { auditId: 17, auditedAt: '2026-10-25T09:12:40.000Z', score: 64 },
      ],
    },
  ],
  meta: { total: 1, limit: 50, offset: 0, hasMore: false },
};

@ApiTags('GEO')
@Controller('api/v1/geo')
export class ListGeoPagesController {
  constructor(
    private readonly scope: BrandScope,
    private readonly audits: PageAuditsRepository,
  ) {}

  @Get('pages')
  @RequireScope('read:visibility')
  @ApiOperation({
    operationId: 'geo_pages',
    summary: "The brand's audited pages with their latest GEO score (0-100), its components, recommendations and score history (paginated)",
    description: 'sort: score (default), url or auditedAt; order: desc (default) or asc. Pages appear once an audit has scored them (POST /api/v1/brands/{id}/page-audits).',
  })
  @ApiOkResponse({ type: GeoPageListResponse, example: EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id' })
  async list(@CurrentPrincipal() p: Principal, @Query() q: ListGeoPagesQuery): Promise<GeoPageListResponse> {
    const brand = await this.scope.resolve(p, q);
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
