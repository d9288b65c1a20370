import { Injectable } from '@nestjs/common';
import { AnswerScope } from '@libs/analysis';
import { type Principal } from '@libs/auth';
import { page, sortColumn } from '@libs/http';
import { mentionRate } from '@libs/metrics';
import { promptCompetitorsSql, promptFigures, promptRef, promptSourcesSql, promptSumsSql, type PromptFigures, type PromptSumsRow } from '../read-model/prompt-reads';
import { Reads } from '../read-model/reads';
import { groupBy, ownerOf } from '../shared/owners';
import { INSIGHT_SORTS, PromptInsightsQuery } from './prompt-insights.request.dto';
import { PromptInsightPage } from './prompt-insights.response.dto';

/** The value a prompt sorts by (null: no figure, last either way). */
function sortValue(field: string, r: PromptSumsRow, f: PromptFigures): number | string | null {
  switch (field) {
    case 'mentionRate':
      return f.mentionRate.value;
    case 'averagePosition':
      return f.averagePosition.value;
    case 'netSentiment':
      return f.sentiment.netSentiment.value;
    case 'query':
      return r.query;
    default:
      return r.answers;
  }
}

/** The read behind `GET /api/v1/prompts/insights`: its controller, the MCP server and other apps call `read`. */
@Injectable()
export class PromptInsights {
  constructor(
    private readonly scopes: AnswerScope,
    private readonly reads: Reads,
  ) {}

  async read(p: Principal, q: PromptInsightsQuery): Promise<PromptInsightPage> {
    const scope = await this.scopes.period(p, q);
    const field = sortColumn(q.sort, INSIGHT_SORTS, 'answers');
    const [sums] = await Promise.all([this.reads.rows<PromptSumsRow>(promptSumsSql(scope.filter)), this.scopes.named(scope, p)]);
    const rows = sums.map((r) => ({ r, f: promptFigures(r) }));
    const dir = q.order === 'asc' ? 1 : -1;
    rows.sort((a, b) => {
      const [x, y] = [sortValue(field, a.r, a.f), sortValue(field, b.r, b.f)];
      if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
      return (x < y ? -1 : x > y ? 1 : 0) * dir || a.r.query.localeCompare(b.r.query);
    });
    const shown = rows.slice(q.offset, q.offset + q.limit);
    const queries = shown.map((s) => s.r.query);
    const [competitors, sources] = queries.length
      ? await Promise.all([
          this.reads.rows<{ query: string; entity_id: string; mentioned: number }>(promptCompetitorsSql(scope.filter, queries)),
          this.reads.rows<{ query: string; domain: string; owner: string; entity_id: string | null; citations: number }>(promptSourcesSql(scope.filter, queries)),
        ])
      : [[], []];
    const competitorsOf = groupBy(competitors, (c) => c.query);
    const sourcesOf = groupBy(sources, (s) => s.query);
    return page(
      shown.map(({ r, f }) => {
        const [lead] = (competitorsOf.get(r.query) ?? []).sort((a, b) => b.mentioned - a.mentioned || a.entity_id.localeCompare(b.entity_id));
        return {
          prompt: promptRef(r),
          answers: r.answers,
          ...f,
          leadingCompetitor: lead ? { entity: AnswerScope.entity(scope, lead.entity_id), mentionRate: mentionRate(lead.mentioned, r.answers) } : null,
          sources: (sourcesOf.get(r.query) ?? []).map((s) => ({ domain: s.domain, owner: ownerOf(scope, s.owner, s.entity_id), citations: s.citations })),
        };
      }),
      rows.length,
      q,
    );
  }
}
