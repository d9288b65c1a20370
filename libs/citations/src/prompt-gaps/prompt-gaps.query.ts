import { Injectable } from '@nestjs/common';
import { AnswerScope } from '@libs/analysis';
import { type Principal } from '@libs/auth';
import { mentionRate, rate } from '@libs/metrics';
import { promptCompetitorsSql, promptRef, promptSourcesSql, promptSumsSql, type PromptSumsRow } from '../read-model/prompt-reads';
import { Reads } from '../read-model/reads';
import { BrandPeriodLimitQuery } from '../shared/list-limit.query';
import { groupBy, ownerOf } from '../shared/owners';
import { PromptGapsResponse } from './prompt-gaps.response.dto';

/** The read behind `GET /api/v1/prompts/gaps`: its controller, the MCP server and other apps call `read`. */
@Injectable()
export class PromptGaps {
  constructor(
    private readonly scopes: AnswerScope,
    private readonly reads: Reads,
  ) {}

  async read(p: Principal, q: BrandPeriodLimitQuery): Promise<PromptGapsResponse> {
    const scope = await this.scopes.period(p, q);
    const [sums] = await Promise.all([this.reads.rows<PromptSumsRow>(promptSumsSql(scope.filter)), this.scopes.named(scope, p)]);
    const rows = sums
      .filter((r) => r.gaps > 0)
      .sort((a, b) => b.gaps - a.gaps || b.gaps / b.answers - a.gaps / a.answers || a.query.localeCompare(b.query))
      .slice(0, q.limit);
    const queries = rows.map((r) => r.query);
    const [competitors, sources] = queries.length
      ? await Promise.all([
          this.reads.rows<{ query: string; entity_id: string; mentioned: number; gap_answers: number }>(promptCompetitorsSql(scope.filter, queries)),
          this.reads.rows<{ query: string; domain: string; owner: string; entity_id: string | null; citations: number }>(promptSourcesSql(scope.filter, queries, true)),
        ])
      : [[], []];
    const competitorsOf = groupBy(competitors, (c) => c.query);
    const sourcesOf = groupBy(sources, (s) => s.query);
    return {
      data: rows.map((r) => ({
        prompt: promptRef(r),
        answers: r.answers,
        gapAnswers: r.gaps,
        gapRate: rate(r.gaps, r.answers),
        brandMentionRate: mentionRate(r.mentioned, r.answers),
        competitors: (competitorsOf.get(r.query) ?? [])
          .filter((c) => c.gap_answers > 0)
          .sort((a, b) => b.gap_answers - a.gap_answers || b.mentioned - a.mentioned || a.entity_id.localeCompare(b.entity_id))
          .map((c) => ({ entity: AnswerScope.entity(scope, c.entity_id), mentionRate: mentionRate(c.mentioned, r.answers), gapAnswers: c.gap_answers })),
        sources: (sourcesOf.get(r.query) ?? []).map((s) => ({ domain: s.domain, owner: ownerOf(scope, s.owner, s.entity_id), citations: s.citations })),
      })),
    };
  }
}
