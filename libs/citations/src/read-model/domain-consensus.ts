import { consensusScores } from '@libs/metrics';
import { ANSWERS_WHERE, filterParams, type AnswerFilter, type Sql } from './answer-filter';

/**
 * Citations of each domain over the filter's days, in one scan: per (domain, provider) the count,
 * first and last time seen and the owner; per (domain, day) the count and the day's age at the
 * end of the period (a grouping set each).
 */
export function domainCitationsSql(f: AnswerFilter): Sql {
  return {
    text: `SELECT domain, provider, ($4::date - day) AS age, count(*)::int AS citations, min(asked_at) AS first_seen, max(asked_at) AS last_seen,
                  min(owner) AS owner, min(entity_id) AS entity_id, GROUPING(provider) AS by_day
             FROM citation_records WHERE ${ANSWERS_WHERE}
            GROUP BY GROUPING SETS ((domain, provider), (domain, day))`,
    params: filterParams(f),
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
               FROM citation_records WHERE ${ANSWERS_WHERE} AND domain = ANY($7::text[]) GROUP BY domain, url) x
            WHERE k <= 3 ORDER BY domain, k`,
    params: [...filterParams(f), [...domains]],
  };
}

export interface DomainCitationRow {
  domain: string;
  provider: string | null;
  age: number | null;
  citations: number;
  first_seen: Date;
  last_seen: Date;
  owner: string;
  entity_id: string | null;
  by_day: number;
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
  const domains = new Map<string, Omit<DomainConsensus, 'raw' | 'score'> & { ages: number[] }>();
  const of = (r: DomainCitationRow) => {
    let d = domains.get(r.domain);
    if (!d) domains.set(r.domain, (d = { domain: r.domain, citations: 0, providers: [], firstSeen: r.first_seen.toISOString(), lastSeen: r.last_seen.toISOString(), owner: r.owner, entityId: r.entity_id, ages: [] }));
    return d;
  };
  for (const r of rows) {
    const d = of(r);
    if (r.by_day) {
      for (let k = 0; k < r.citations; k++) d.ages.push(r.age!);
      continue;
    }
    d.citations += r.citations;
    d.providers.push({ provider: r.provider!, citations: r.citations });
    if (r.first_seen.toISOString() < d.firstSeen) d.firstSeen = r.first_seen.toISOString();
    if (r.last_seen.toISOString() > d.lastSeen) d.lastSeen = r.last_seen.toISOString();
    if (r.owner < d.owner) [d.owner, d.entityId] = [r.owner, r.entity_id];
  }
  const list = [...domains.values()];
  const scores = consensusScores(list.map((d) => ({ domain: d.domain, citationAgesDays: d.ages, providersCiting: d.providers.length })), providersAsked);
  return list
    .map(({ ages: _ages, ...d }, k) => ({ ...d, providers: d.providers.sort((a, b) => b.citations - a.citations || a.provider.localeCompare(b.provider)), raw: scores[k].raw, score: scores[k].score }))
    .sort((a, b) => b.raw - a.raw || b.citations - a.citations || a.domain.localeCompare(b.domain));
}
