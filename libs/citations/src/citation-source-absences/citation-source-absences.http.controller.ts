import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { absenceScores } from '@libs/metrics';
import { domainCitationsSql, domainConsensus, providersAskedSql, type DomainCitationRow } from '../read-model/domain-consensus';
import { Reads } from '../read-model/reads';
import { CitationsScope } from '../shared/citations-scope';
import { groupBy, ownerOf } from '../shared/owners';
import { absenceCompetitorsSql, absenceDensitySql, absencePromptsSql } from './absences.sql';
import { CITATION_SOURCE_ABSENCES_EXAMPLE } from './citation-source-absences.example';
import { CitationSourceAbsencesQuery } from './citation-source-absences.request.dto';
import { CitationSourceAbsencesResponse } from './citation-source-absences.response.dto';

@ApiTags('Citation sources')
@Controller('api/v1/citation-sources')
export class CitationSourceAbsencesController {
  constructor(
    private readonly scopes: CitationsScope,
    private readonly reads: Reads,
  ) {}

  @Get('absences')
  @RequireScope('read:citation-sources')
  @ApiOperation({
    operationId: 'citation_sources_absences',
    summary:
      'Domains cited in answers that mention a competitor and not the brand, ranked by consensus score × competitor density (scaled 0-100; scores under minScore dropped), naming the competitors and the prompts (DESIGN §14). Domains of the brand itself are not absences.',
  })
  @ApiOkResponse({ type: CitationSourceAbsencesResponse, example: CITATION_SOURCE_ABSENCES_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No brand the caller may see has this id' })
  async absences(@CurrentPrincipal() p: Principal, @Query() q: CitationSourceAbsencesQuery): Promise<CitationSourceAbsencesResponse> {
    const scope = await this.scopes.range(p, q, q.range);
    const [rows, [{ providers }], density] = await Promise.all([
      this.reads.rows<DomainCitationRow>(domainCitationsSql(scope.filter)),
      this.reads.rows<{ providers: number }>(providersAskedSql(scope.filter)),
      this.reads.rows<{ domain: string; answers: number; competitor_only: number }>(absenceDensitySql(scope.filter)),
      this.scopes.named(scope, p),
    ]);
    const consensus = new Map(domainConsensus(rows, providers).map((d) => [d.domain, d]));
    const counts = new Map(density.map((d) => [d.domain, d]));
    const scored = absenceScores(
      density.map((d) => ({ domain: d.domain, consensus: consensus.get(d.domain)?.raw ?? 0, competitorOnlyAnswers: d.competitor_only, answersCiting: d.answers })),
      q.minScore,
    ).slice(0, q.limit);
    const domains = scored.map((s) => s.domain);
    const [competitors, prompts] = domains.length
      ? await Promise.all([
          this.reads.rows<{ domain: string; entity_id: string; answers: number }>(absenceCompetitorsSql(scope.filter, domains)),
          this.reads.rows<{ domain: string; query: string; prompt_id: string | null; answers: number }>(absencePromptsSql(scope.filter, domains)),
        ])
      : [[], []];
    const competitorsOf = groupBy(competitors, (r) => r.domain);
    const promptsOf = groupBy(prompts, (r) => r.domain);
    return {
      data: {
        startDate: scope.filter.start,
        endDate: scope.filter.end,
        minScore: q.minScore,
        domains: scored.map((s) => {
          const c = consensus.get(s.domain)!;
          return {
            domain: s.domain,
            absenceScore: s.score,
            consensusScore: c.score,
            competitorDensity: s.competitorDensity,
            answersCiting: counts.get(s.domain)!.answers,
            competitorOnlyAnswers: counts.get(s.domain)!.competitor_only,
            citations: c.citations,
            owner: ownerOf(scope, c.owner, c.entityId),
            competitors: (competitorsOf.get(s.domain) ?? []).map((r) => ({ entity: CitationsScope.entity(scope, r.entity_id), answers: r.answers })),
            prompts: (promptsOf.get(s.domain) ?? []).map((r) => ({ prompt: { id: r.prompt_id === null ? null : Number(r.prompt_id), query: r.query }, answers: r.answers })),
          };
        }),
      },
    };
  }
}
