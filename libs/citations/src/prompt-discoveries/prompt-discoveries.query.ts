import { Injectable } from '@nestjs/common';
import { AnswerScope } from '@libs/analysis';
import { TrackedPromptsRepository } from '@libs/analysis';
import { type Principal } from '@libs/auth';
import { questionKey } from '../domain';
import { BrandPeriodLimitQuery } from '../shared/list-limit.query';
import { DISCOVERY_SOURCES, type DiscoveryCandidate, type DiscoverySource } from './discovery-source';
import { PromptDiscoveriesResponse } from './prompt-discoveries.response.dto';
import { Inject } from '@nestjs/common';

/** Tracked prompts a brand may have, all read to de-duplicate against (active or not). */
const TRACKED_LIMIT = 10_000;

/** The read behind `GET /api/v1/prompts/discoveries`: its controller, the MCP server and other apps call `read`. */
@Injectable()
export class PromptDiscoveries {
  constructor(
    private readonly scopes: AnswerScope,
    private readonly prompts: TrackedPromptsRepository,
    @Inject(DISCOVERY_SOURCES) private readonly sources: DiscoverySource[],
  ) {}

  async read(p: Principal, q: BrandPeriodLimitQuery): Promise<PromptDiscoveriesResponse> {
    const scope = await this.scopes.period(p, q);
    const tracked = await this.prompts.list(scope.brand, { limit: TRACKED_LIMIT, offset: 0, sortColumn: 'id', order: 'asc' });
    const excluded = [...new Set(tracked.rows.map((t) => questionKey(t.query)))];
    const merged = new Map<string, DiscoveryCandidate>();
    for (const found of await Promise.all(this.sources.map((s) => s.candidates(scope.filter, excluded, q.limit)))) {
      for (const c of found) {
        const m = merged.get(c.key);
        if (!m) merged.set(c.key, { ...c, origins: [...c.origins], providers: [...c.providers], prompts: [...c.prompts] });
        else {
          m.origins.push(...c.origins);
          m.answers += c.answers;
          m.providers = [...new Set([...m.providers, ...c.providers])].sort();
          m.prompts = [...new Set([...m.prompts, ...c.prompts])].slice(0, 3);
          if (c.firstSeen < m.firstSeen) m.firstSeen = c.firstSeen;
          if (c.lastSeen > m.lastSeen) [m.lastSeen, m.question] = [c.lastSeen, c.question];
        }
      }
    }
    const occurrences = (c: DiscoveryCandidate) => c.origins.reduce((n, o) => n + o.occurrences, 0);
    return {
      data: [...merged.values()]
        .sort((a, b) => b.answers - a.answers || occurrences(b) - occurrences(a) || a.key.localeCompare(b.key))
        .slice(0, q.limit)
        .map((c) => ({ question: c.question, occurrences: occurrences(c), answers: c.answers, foundIn: c.origins, providers: c.providers, prompts: c.prompts, firstSeen: c.firstSeen, lastSeen: c.lastSeen })),
    };
  }
}
