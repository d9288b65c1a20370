import { Injectable } from '@nestjs/common';
import { AnswerScope } from '@libs/analysis';
import { type Principal } from '@libs/auth';
import { ApiError } from '@libs/http';
import { Reads } from '../read-model/reads';
import { urlProvidersSql } from '../read-model/source-reads';
import { ownerOf } from '../shared/owners';
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

/** The read behind `GET /api/v1/citations/sources/:id`: its controller, the MCP server and other apps call `read`. */
@Injectable()
export class GetCitationSource {
  constructor(
    private readonly scopes: AnswerScope,
    private readonly reads: Reads,
  ) {}

  async read(p: Principal, id: number): Promise<CitationSourceResponse> {
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
