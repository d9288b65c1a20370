import { Injectable } from '@nestjs/common';
import { searchConsoleQueryFacts } from '@libs/channels';
import { questionKey } from '../domain';
import type { AnswerFilter, Sql } from '../read-model/answer-filter';
import { Reads } from '../read-model/reads';
import type { DiscoveryCandidate, DiscoverySource } from './discovery-source';

/**
 * The brand's Search Console queries over the period (the channels' `searchConsoleQueryFacts`:
 * rows of `search_console` channels mapped to the brand), most impressions first, a page of them.
 */
export function searchConsoleQueriesSql(f: AnswerFilter, limit: number, offset: number): Sql {
  return searchConsoleQueryFacts(f, limit, offset);
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
 * answers. Queries are not a provider's nor a prompt's: with a provider or prompt filter there are none.
 */
@Injectable()
export class SearchConsoleDiscoveries implements DiscoverySource {
  constructor(private readonly reads: Reads) {}

  async candidates(filter: AnswerFilter, excludedKeys: readonly string[], limit: number): Promise<DiscoveryCandidate[]> {
    if (filter.provider || filter.promptIds) return [];
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
