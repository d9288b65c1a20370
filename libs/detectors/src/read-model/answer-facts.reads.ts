import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { poolOf, preparedQuery } from '@libs/sql';
import { seriesKey, type AnswerFact, type Series } from '../domain';
import { brandEntityId } from './answer-facts.table';

/** Which answers of a brand to read: a time range, and at most the latest `perSeries` of each series. */
export interface AnswerFactsFilter {
  organizationId: number;
  brandId: number;
  since?: Date;
  until?: Date;
  perSeries: number;
}

interface Row {
  id: string;
  run_id: string;
  prompt_id: string | null;
  query: string;
  provider: string;
  asked_at: Date;
  mentioned: boolean;
  mentions: number;
  rank: number | null;
  sentiment: AnswerFact['brand']['sentiment'];
  total_mentions: number;
  cited: boolean;
  with_citations: boolean;
  competitor_domains: string[];
  contradictions: AnswerFact['contradictions'];
  /** The answer's competitors in the analysis's order: entity ids, names, mentioned. */
  c_ids: string[] | null;
  c_names: string[] | null;
  c_mentioned: boolean[] | null;
}

/**
 * The statement behind AnswerFactsReads (also run by the benchmark's bare server), over the narrow
 * `answer_facts` (issue 34, part 4): the brand's own rows (one per analysed answer, the latest
 * analysis of each) cut to the newest `perSeries` of each prompt × provider, then the answer's
 * competitors' rows by key, folded into arrays. Failed answers are not answers: a provider down for
 * a run leaves no row here.
 */
export function answerFactsSql(f: AnswerFactsFilter): { text: string; params: unknown[] } {
  return {
    text: `SELECT b.result_id AS id, b.run_id, b.prompt_id, b.query, b.provider, b.asked_at, b.mentioned, b.mentions, b.rank, b.sentiment,
  b.total_mentions, b.cited, b.with_citations, b.competitor_domains, b.contradictions, c.c_ids, c.c_names, c.c_mentioned
FROM (
  SELECT result_id, run_id, prompt_id, query, provider, asked_at, mentioned, mentions, rank, sentiment, total_mentions, cited, with_citations, competitor_domains, contradictions,
    row_number() OVER (PARTITION BY prompt_id, CASE WHEN prompt_id IS NULL THEN query END, provider ORDER BY asked_at DESC, result_id DESC) AS rn
  FROM answer_facts
  WHERE brand_id = $2 AND entity_id = $6 AND organization_id = $1
    AND asked_at >= $3::timestamptz AND asked_at < $4::timestamptz
) b
LEFT JOIN LATERAL (
  SELECT array_agg(entity_id ORDER BY position) AS c_ids, array_agg(name ORDER BY position) AS c_names, array_agg(mentioned ORDER BY position) AS c_mentioned
  FROM answer_facts c WHERE c.result_id = b.result_id AND c.kind = 'competitor'
) c ON true
WHERE b.rn <= $5`,
    params: [f.organizationId, f.brandId, (f.since ?? new Date(0)).toISOString(), (f.until ?? new Date('9999-01-01T00:00:00Z')).toISOString(), f.perSeries, brandEntityId(f.brandId)],
  };
}

/** Rows of `answerFactsSql` as series (oldest answer first), sorted by prompt and provider. */
export function seriesFromRows(rows: readonly Row[]): Series[] {
  const bySeries = new Map<string, Series>();
  for (const r of rows) {
    const promptId = r.prompt_id === null ? null : Number(r.prompt_id);
    const key = seriesKey(promptId, r.query);
    const id = `${key}\u0000${r.provider}`;
    let s = bySeries.get(id);
    if (!s) bySeries.set(id, (s = { key, promptId, query: r.query, provider: r.provider, answers: [] }));
    const ids = r.c_ids ?? [];
    s.answers.push({
      resultId: r.id,
      runId: Number(r.run_id),
      promptId,
      query: r.query,
      provider: r.provider,
      askedAt: new Date(r.asked_at).toISOString(),
      brand: { mentioned: r.mentioned, mentions: r.mentions, rank: r.rank, sentiment: r.sentiment },
      totalMentions: r.total_mentions,
      competitors: ids.map((entityId, i) => ({ entityId, name: r.c_names![i], mentioned: r.c_mentioned![i] })),
      cited: r.cited,
      withCitations: r.with_citations,
      competitorDomains: r.competitor_domains,
      contradictions: r.contradictions,
    });
  }
  const out = [...bySeries.values()].sort((a, b) => a.key.localeCompare(b.key) || a.provider.localeCompare(b.provider));
  for (const s of out) s.answers.sort((a, b) => a.askedAt.localeCompare(b.askedAt) || a.resultId.localeCompare(b.resultId));
  return out;
}

/** A brand's analysed answers as the detectors read them. */
@Injectable()
export class AnswerFactsReads {
  constructor(private readonly dataSource: DataSource) {}

  async series(f: AnswerFactsFilter): Promise<Series[]> {
    const sql = answerFactsSql(f);
    return seriesFromRows(await preparedQuery<Row>(poolOf(this.dataSource), sql.text, sql.params));
  }
}
