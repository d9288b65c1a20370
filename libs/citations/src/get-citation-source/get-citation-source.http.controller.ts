import { Controller, Get, Param } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { ApiError, ParseIdPipe } from '@libs/http';
import { Reads } from '../read-model/reads';
import { urlProvidersSql } from '../read-model/source-reads';
import { CitationsScope } from '../shared/citations-scope';
import { ownerOf } from '../shared/owners';
import { GET_CITATION_SOURCE_EXAMPLE } from './get-citation-source.example';
import { CitationSourceResponse } from './get-citation-source.response.dto';

interface SourceRecord {
  id: string;
  organization_id: string;
  brand_id: string;
  url: string;
  domain: string;
  title: string | null;
}

const RECORD = `SELECT id, organization_id, brand_id, url, domain, title FROM citation_sources WHERE id = $1`;
const TOTALS = `SELECT min(owner) AS owner, min(entity_id) AS entity_id, count(*)::int AS citations, count(DISTINCT result_id)::int AS answers, min(asked_at) AS first_seen, max(asked_at) AS last_seen
                  FROM citation_records WHERE organization_id = $1 AND brand_id = $2 AND url = $3`;
const PROMPTS = `SELECT query, max(prompt_id) AS prompt_id, count(*)::int AS citations, count(DISTINCT result_id)::int AS answers, max(asked_at) AS last_seen
                   FROM citation_records WHERE organization_id = $1 AND brand_id = $2 AND url = $3
                  GROUP BY query ORDER BY answers DESC, query LIMIT 50`;

@ApiTags('Citations')
@Controller('api/v1/citations')
export class GetCitationSourceController {
  constructor(
    private readonly scopes: CitationsScope,
    private readonly reads: Reads,
  ) {}

  @Get('sources/:id')
  @RequireScope('read:citations')
  @ApiOperation({ operationId: 'citations_source', summary: 'One cited URL: its domain, title, owner, how often and by which providers it is cited, for which prompts, first and last seen (all its history)' })
  @ApiParam({ name: 'id', type: 'integer', description: 'The citation source (a cited URL of a brand)' })
  @ApiOkResponse({ type: CitationSourceResponse, example: GET_CITATION_SOURCE_EXAMPLE })
  @ApiNotFoundResponse({ description: "No such citation source, or another organisation's (or another client's)" })
  async get(@CurrentPrincipal() p: Principal, @Param('id', ParseIdPipe) id: number): Promise<CitationSourceResponse> {
    const [record] = await this.reads.rows<SourceRecord>({ text: RECORD, params: [id] });
    const what = `Citation source ${id}`;
    if (!record) throw ApiError.notFound(what);
    const scope = await this.scopes.ofRecord(p, { organizationId: Number(record.organization_id), brandId: Number(record.brand_id) }, what);
    const key = [scope.brand.organizationId, scope.brand.id, record.url];
    const [[totals], prompts, providers] = await Promise.all([
      this.reads.rows<{ owner: string | null; entity_id: string | null; citations: number; answers: number; first_seen: Date | null; last_seen: Date | null }>({ text: TOTALS, params: key }),
      this.reads.rows<{ query: string; prompt_id: string | null; citations: number; answers: number; last_seen: Date }>({ text: PROMPTS, params: key }),
      this.reads.rows<{ provider: string; citations: number }>(urlProvidersSql(scope.brand.organizationId, scope.brand.id, [record.url])),
      this.scopes.named(scope, p),
    ]);
    return {
      data: {
        id: Number(record.id),
        brandId: scope.brand.id,
        url: record.url,
        domain: record.domain,
        title: record.title,
        owner: ownerOf(scope, totals.owner ?? 'other', totals.entity_id),
        citations: totals.citations,
        answers: totals.answers,
        providers: providers.map(({ provider, citations }) => ({ provider, citations })),
        firstSeen: totals.first_seen?.toISOString() ?? null,
        lastSeen: totals.last_seen?.toISOString() ?? null,
        prompts: prompts.map((r) => ({ prompt: { id: r.prompt_id === null ? null : Number(r.prompt_id), query: r.query }, citations: r.citations, answers: r.answers, lastSeen: r.last_seen.toISOString() })),
      },
    };
  }
}
