import { CONSENSUS_HALF_LIFE_DAYS, consensusScores } from '@libs/metrics';
import { ANSWERS_WHERE, filterParams, type AnswerFilter, type Sql } from './answer-filter';

/**
 * Citations of each domain over the filter's days, per provider: the count, their recency weights
 * summed (0.5^(age / half-life), age in whole UTC days before the period's last day), the first and
 * last time seen and the owner.
 */
export function domainCitationsSql(f: AnswerFilter): Sql {
  return {
    text: `SELECT domain, provider, count(*)::int AS citations, sum(power(0.5, ($4::date - day) / $9::float8))::float8 AS weighted,
                  min(asked_at) AS first_seen, max(asked_at) AS last_seen, min(owner) AS owner, min(entity_id) AS entity_id
             FROM citation_records WHERE ${ANSWERS_WHERE}
            GROUP BY domain, provider`,
    params: [...filterParams(f), CONSENSUS_HALF_LIFE_DAYS],
  };
}

/** How many providers were asked: those with an analysed answer of the brand in the period. */
export function providersAskedSql(f: AnswerFilter): Sql {
  return { text: `SELECT count(DISTINCT provider)::int AS providers FROM prompt_answers WHERE ${ANSWERS_WHERE}`, params: filterParams(f) };
}

/** Up to three of the most cited URLs of each of the given domains. */
export function domainExamplesSql(f: AnswerFilter, domains: readonly string[]): Sql {
  return {
    text: `SELECT domain, url FROM (
             SELECT domain, url, row_number() OVER (PARTITION BY domain ORDER BY count(*) DESC, url) AS k
               FROM citation_records WHERE ${ANSWERS_WHERE} AND domain = ANY($9::text[]) GROUP BY domain, url) x
            WHERE k <= 3 ORDER BY domain, k`,
    params: [...filterParams(f), [...domains]],
  };
}

export interface DomainCitationRow {
  domain: string;
  provider: string;
  citations: number;
  weighted: number;
  first_seen: Date;
  last_seen: Date;
  owner: string;
  entity_id: string | null;
}

/** A cited domain's figures over the period (DESIGN §14 consensus). */
export interface DomainConsensus {
  domain: string;
  citations: number;
  providers: { provider: string; citations: number }[];
  firstSeen: string;
  lastSeen: string;
  owner: string;
  entityId: string | null;
  /** Recency-weighted citations × provider coverage, before scaling. */
  raw: number;
  /** 0-100, the top domain being 100 (null when nothing scores). */
  score: number | null;
}

/**
 * Consensus score of each domain (DESIGN §14, libs/metrics): recency-weighted citation count (a
 * citation `age` whole UTC days before the period's last day weighs 0.5^(age / 7)) × providers
 * citing it / providers asked, scaled so the top domain of the brand's list is 100. Ranked by
 * score, then citations, then domain.
 */
export function domainConsensus(rows: readonly DomainCitationRow[], providersAsked: number): DomainConsensus[] {
  const domains = new Map<string, Omit<DomainConsensus, 'raw' | 'score'> & { weighted: number }>();
  for (const r of rows) {
    const [first, last] = [r.first_seen.toISOString(), r.last_seen.toISOString()];
    let d = domains.get(r.domain);
    if (!d) domains.set(r.domain, (d = { domain: r.domain, citations: 0, weighted: 0, providers: [], firstSeen: first, lastSeen: last, owner: r.owner, entityId: r.entity_id }));
    d.citations += r.citations;
    d.weighted += r.weighted;
    d.providers.push({ provider: r.provider, citations: r.citations });
    if (first < d.firstSeen) d.firstSeen = first;
    if (last > d.lastSeen) d.lastSeen = last;
    if (r.owner < d.owner) [d.owner, d.entityId] = [r.owner, r.entity_id];
  }
  const list = [...domains.values()];
  const scores = consensusScores(list.map((d) => ({ domain: d.domain, weightedCitations: d.weighted, providersCiting: d.providers.length })), providersAsked);
  return list
    .map(({ weighted: _weighted, ...d }, k) => ({ ...d, providers: d.providers.sort((a, b) => b.citations - a.citations || a.provider.localeCompare(b.provider)), raw: scores[k].raw, score: scores[k].score }))
    .sort((a, b) => b.raw - a.raw || b.citations - a.citations || a.domain.localeCompare(b.domain));
}
