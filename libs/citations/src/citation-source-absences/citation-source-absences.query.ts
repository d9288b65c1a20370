import { Injectable } from '@nestjs/common';
import { AnswerScope } from '@libs/analysis';
import { type Principal } from '@libs/auth';
import { absenceScores } from '@libs/metrics';
import { domainCitationsSql, domainConsensus, providersAskedSql, type DomainCitationRow } from '../read-model/domain-consensus';
import { Reads } from '../read-model/reads';
import { groupBy, ownerOf } from '../shared/owners';
import { absenceCompetitorsSql, absenceDensitySql, absencePromptsSql } from './absences.sql';
import { CitationSourceAbsencesQuery } from './citation-source-absences.request.dto';
import { CitationSourceAbsencesResponse } from './citation-source-absences.response.dto';

/** The read behind `GET /api/v1/citation-sources/absences`: its controller, the MCP server and other apps call `read`. */
@Injectable()
export class CitationSourceAbsences {
  constructor(
    private readonly scopes: AnswerScope,
    private readonly reads: Reads,
  ) {}

  async read(p: Principal, q: CitationSourceAbsencesQuery): Promise<CitationSourceAbsencesResponse> {
    const scope = await this.scopes.lastDays(p, q, q.range);
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
            competitors: (competitorsOf.get(s.domain) ?? []).map((r) => ({ entity: AnswerScope.entity(scope, r.entity_id), answers: r.answers })),
            prompts: (promptsOf.get(s.domain) ?? []).map((r) => ({ prompt: { id: r.prompt_id === null ? null : Number(r.prompt_id), query: r.query }, answers: r.answers })),
          };
        }),
      },
    };
  }
}
