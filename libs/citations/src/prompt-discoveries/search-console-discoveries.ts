import { Injectable } from '@nestjs/common';
import { questionKey } from '../domain';
import type { AnswerFilter, Sql } from '../read-model/answer-filter';
import { Reads } from '../read-model/reads';
import type { DiscoveryCandidate, DiscoverySource } from './discovery-source';

/**
 * The brand's Search Console queries over the period (`channel_content_daily`, the channels read
 * model: rows of `search_console` channels mapped to the brand), most impressions first, a page of them.
 */
export function searchConsoleQueriesSql(f: AnswerFilter, limit: number, offset: number): Sql {
  return {
    text: `SELECT query, coalesce(sum(impressions), 0)::bigint AS impressions, coalesce(sum(clicks), 0)::bigint AS clicks,
                  min(day)::text AS first_day, max(day)::text AS last_day
             FROM channel_content_daily
            WHERE organization_id = $1 AND brand_id = $2 AND day BETWEEN $3::date AND $4::date AND channel = 'search_console' AND query <> ''
            GROUP BY query ORDER BY impressions DESC, clicks DESC, query LIMIT $5 OFFSET $6`,
    params: [f.organizationId, f.brandId, f.start, f.end, limit, offset],
  };
}

interface Row {
  query: string;
  impressions: string;
  clicks: string;
  first_day: string;
  last_day: string;
}

/**
 * Candidate prompts from the Search Console queries people found the brand's site with (issue 18's
 * channel, read by SQL). How often: `occurrences` is the query's impressions (its clicks beside
 * them); it is found in no answer, so `answers` is 0 and such candidates rank after those of the
 * answers. Queries are not a provider's, a prompt's nor a market's: with a provider, prompt, country or language filter there are none.
 */
@Injectable()
export class SearchConsoleDiscoveries implements DiscoverySource {
  constructor(private readonly reads: Reads) {}

  async candidates(filter: AnswerFilter, excludedKeys: readonly string[], limit: number): Promise<DiscoveryCandidate[]> {
    if (filter.provider || filter.promptIds || filter.country || filter.language) return [];
    const excluded = new Set(excludedKeys);
    const found = new Map<string, DiscoveryCandidate>();
    // Queries are compared by questionKey (in code, as the tracked prompts are): pages are read until `limit` candidates are found.
    const page = limit + excluded.size;
    for (let offset = 0; found.size < limit; offset += page) {
      const rows = await this.reads.rows<Row>(searchConsoleQueriesSql(filter, page, offset));
      for (const r of rows) {
        const key = questionKey(r.query);
        if (!key || excluded.has(key)) continue;
        const c = found.get(key);
        const [impressions, clicks] = [Number(r.impressions), Number(r.clicks)];
        if (!c) {
          found.set(key, {
            key,
            question: r.query,
            origins: [{ origin: 'search_console', occurrences: impressions, clicks }],
            answers: 0,
            providers: [],
            prompts: [],
            firstSeen: `${r.first_day}T00:00:00.000Z`,
            lastSeen: `${r.last_day}T00:00:00.000Z`,
          });
        } else {
          c.origins[0].occurrences += impressions;
          c.origins[0].clicks! += clicks;
          if (`${r.first_day}T00:00:00.000Z` < c.firstSeen) c.firstSeen = `${r.first_day}T00:00:00.000Z`;
          if (`${r.last_day}T00:00:00.000Z` > c.lastSeen) c.lastSeen = `${r.last_day}T00:00:00.000Z`;
        }
      }
      if (rows.length < page) break;
    }
    return [...found.values()].slice(0, limit);
  }
}
