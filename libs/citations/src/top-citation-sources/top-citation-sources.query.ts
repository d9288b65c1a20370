import { Injectable } from '@nestjs/common';
import { AnswerScope } from '@libs/analysis';
import { type Principal } from '@libs/auth';
import { domainCitationsSql, domainConsensus, domainExamplesSql, providersAskedSql, type DomainCitationRow } from '../read-model/domain-consensus';
import { Reads } from '../read-model/reads';
import { groupBy, ownerOf } from '../shared/owners';
import { RangeQuery } from '../shared/range.query';
import { TopCitationSourcesResponse } from './top-citation-sources.response.dto';

/** The read behind `GET /api/v1/citation-sources/top`: its controller, the MCP server and other apps call `read`. */
@Injectable()
export class TopCitationSources {
  constructor(
    private readonly scopes: AnswerScope,
    private readonly reads: Reads,
  ) {}

  async read(p: Principal, q: RangeQuery): Promise<TopCitationSourcesResponse> {
    const scope = await this.scopes.lastDays(p, q, q.range);
    const [rows, [{ providers }]] = await Promise.all([
      this.reads.rows<DomainCitationRow>(domainCitationsSql(scope.filter)),
      this.reads.rows<{ providers: number }>(providersAskedSql(scope.filter)),
      this.scopes.named(scope, p),
    ]);
    const ranked = domainConsensus(rows, providers);
    const shown = ranked.slice(0, q.limit);
    const examples = shown.length ? groupBy(await this.reads.rows<{ domain: string; url: string }>(domainExamplesSql(scope.filter, shown.map((d) => d.domain))), (r) => r.domain) : new Map();
    return {
      data: {
        startDate: scope.filter.start,
        endDate: scope.filter.end,
        providersAsked: providers,
        totalDomains: ranked.length,
        domains: shown.map((d) => ({
          domain: d.domain,
          consensusScore: d.score,
          citations: d.citations,
          providerCoverage: providers ? Math.min(1, d.providers.length / providers) : 0,
          providers: d.providers,
          firstSeen: d.firstSeen,
          lastSeen: d.lastSeen,
          owner: ownerOf(scope, d.owner, d.entityId),
          exampleUrls: (examples.get(d.domain) ?? []).map((e: { url: string }) => e.url),
        })),
      },
    };
  }
}
