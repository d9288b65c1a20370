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
  /** The answer's competitors in the analysis's order: entity ids, names, mentioned (from the brand's row). */
  c_ids: string[] | null;
  c_names: string[] | null;
  c_mentioned: boolean[] | null;
}

const COLUMNS = `result_id AS id, run_id, prompt_id, query, provider, asked_at, mentioned, mentions, rank, sentiment, total_mentions, cited, with_citations, competitor_domains, contradictions,
    competitor_ids AS c_ids, competitor_names AS c_names, competitor_mentioned AS c_mentioned`;
/** The brand's rows of the read (its entity, its organisation, the time range). */
const BRAND_ROWS = `brand_id = $2 AND entity_id = $6 AND organization_id = $1 AND asked_at >= $3::timestamptz AND asked_at < $4::timestamptz`;

/**
 * The statement behind AnswerFactsReads (also run by the benchmark's bare server), over the narrow
 * `answer_facts` (issue 34, part 4): the brand's own rows (one per analysed answer, the latest
 * analysis of each, its competitors carried as arrays) cut to the newest `perSeries` of each
 * prompt × provider. The series of tracked prompts are found by a walk of the index
 * `answer_facts_series_idx` (one probe per prompt × provider, the next one after the last: a loose
 * index scan), and each one's newest rows of the range are read from the same index with a
 * `LIMIT`, so the read touches about `perSeries` rows per series whatever the history's length.
 * The answers of audit requests' queries (no prompt; a series per query) are few and windowed as
 * before. Newest first within a series, ties by result id, as the window did. Failed answers are
 * not answers: a provider down for a run leaves no row here.
 */
export function answerFactsSql(f: AnswerFactsFilter): { text: string; params: unknown[] } {
  return {
    text: `WITH RECURSIVE s AS (
  (SELECT prompt_id, provider FROM answer_facts WHERE brand_id = $2 AND entity_id = $6 AND prompt_id IS NOT NULL ORDER BY prompt_id, provider LIMIT 1)
  UNION ALL
  SELECT n.prompt_id, n.provider FROM s CROSS JOIN LATERAL (
    SELECT prompt_id, provider FROM answer_facts
    WHERE brand_id = $2 AND entity_id = $6 AND (prompt_id, provider) > (s.prompt_id, s.provider)
    ORDER BY prompt_id, provider LIMIT 1
  ) n
)
SELECT b.* FROM s CROSS JOIN LATERAL (
  SELECT ${COLUMNS} FROM answer_facts
  WHERE ${BRAND_ROWS} AND prompt_id = s.prompt_id AND provider = s.provider
  ORDER BY asked_at DESC, result_id DESC LIMIT $5
) b
UNION ALL
SELECT id, run_id, prompt_id, query, provider, asked_at, mentioned, mentions, rank, sentiment, total_mentions, cited, with_citations, competitor_domains, contradictions, c_ids, c_names, c_mentioned
FROM (
  SELECT ${COLUMNS}, row_number() OVER (PARTITION BY query, provider ORDER BY asked_at DESC, result_id DESC) AS rn
  FROM answer_facts WHERE ${BRAND_ROWS} AND prompt_id IS NULL
) q
WHERE rn <= $5`,
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
