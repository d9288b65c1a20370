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

/**
 * What the read gives for each answer, one JSON array per field over the series' answers (a
 * series' answers travel as one row: a few thousand rows of columns instead of tens of thousands
 * of rows of eighteen fields, which node-postgres spent most of the read parsing). The time is the
 * epoch millisecond (what `Date` keeps of a timestamp), the arrays and the claims as stored.
 */
const FIELDS = [
  'result_id',
  'run_id',
  'query',
  'floor(extract(epoch FROM asked_at) * 1000)',
  'mentioned',
  'mentions',
  'rank',
  'sentiment',
  'total_mentions',
  'cited',
  'with_citations',
  'competitor_domains',
  'contradictions',
  'competitor_ids',
  'competitor_names',
  'competitor_mentioned',
] as const;
const COLUMNS = `json_build_array(${FIELDS.map((f) => `json_agg(${f})`).join(', ')})`;
const SELECTED = `result_id, run_id, query, asked_at, mentioned, mentions, rank, sentiment, total_mentions, cited, with_citations, competitor_domains, contradictions, competitor_ids, competitor_names, competitor_mentioned`;

type Columns = [
  id: string[],
  runId: number[],
  query: string[],
  askedAt: number[],
  mentioned: boolean[],
  mentions: number[],
  rank: (number | null)[],
  sentiment: AnswerFact['brand']['sentiment'][],
  totalMentions: number[],
  cited: boolean[],
  withCitations: boolean[],
  competitorDomains: string[][],
  contradictions: AnswerFact['contradictions'][],
  competitorIds: (string[] | null)[],
  competitorNames: (string[] | null)[],
  competitorMentioned: (boolean[] | null)[],
];

/** One series of the read: its prompt (null: an audit request's query, the answers' query) and provider, its answers by field. */
interface SeriesRow {
  prompt_id: string | null;
  provider: string;
  answers: Columns;
}

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
 * before. Newest first within a series, ties by result id, as the window did. One row per series
 * (see FIELDS). Failed answers are not answers: a provider down for a run leaves no row here.
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
SELECT s.prompt_id, s.provider, b.answers FROM s CROSS JOIN LATERAL (
  SELECT ${COLUMNS} AS answers FROM (
    SELECT ${SELECTED} FROM answer_facts
    WHERE ${BRAND_ROWS} AND prompt_id = s.prompt_id AND provider = s.provider
    ORDER BY asked_at DESC, result_id DESC LIMIT $5
  ) newest
  HAVING count(*) > 0
) b
UNION ALL
SELECT NULL, provider, ${COLUMNS}
FROM (
  SELECT ${SELECTED}, provider, row_number() OVER (PARTITION BY query, provider ORDER BY asked_at DESC, result_id DESC) AS rn
  FROM answer_facts WHERE ${BRAND_ROWS} AND prompt_id IS NULL
) q
WHERE rn <= $5
GROUP BY query, provider`,
    params: [f.organizationId, f.brandId, (f.since ?? new Date(0)).toISOString(), (f.until ?? new Date('9999-01-01T00:00:00Z')).toISOString(), f.perSeries, brandEntityId(f.brandId)],
  };
}

/**
 * Rows of `answerFactsSql` as series (oldest answer first), sorted by prompt and provider. A
 * series' query is its newest answer's (a prompt's text may have been edited since older answers).
 */
export function seriesFromRows(rows: readonly SeriesRow[]): Series[] {
  const out: Series[] = [];
  for (const { prompt_id, provider, answers: c } of rows) {
    const promptId = prompt_id === null ? null : Number(prompt_id);
    // Oldest first, ties by result id: the order of the earlier `askedAt.localeCompare` on ISO times (the same as their epoch
    // milliseconds'), taken on the numbers; the statement gives them newest first, so the sort mostly finds them in order.
    const order = c[0].map((_, i) => i).reverse();
    order.sort((i, j) => c[3][i] - c[3][j] || c[0][i].localeCompare(c[0][j]));
    const answers: AnswerFact[] = order.map((i) => {
      const ids = c[13][i] ?? [];
      const names = c[14][i]!;
      const mentioned = c[15][i]!;
      return {
        resultId: c[0][i],
        runId: Number(c[1][i]),
        promptId,
        query: c[2][i],
        provider,
        askedAt: new Date(c[3][i]).toISOString(),
        brand: { mentioned: c[4][i], mentions: c[5][i], rank: c[6][i], sentiment: c[7][i] },
        totalMentions: c[8][i],
        competitors: ids.map((entityId, k) => ({ entityId, name: names[k], mentioned: mentioned[k] })),
        cited: c[9][i],
        withCitations: c[10][i],
        competitorDomains: c[11][i],
        contradictions: c[12][i],
      };
    });
    const query = answers[answers.length - 1].query;
    out.push({ key: seriesKey(promptId, query), promptId, query, provider, answers });
  }
  return out.sort((a, b) => a.key.localeCompare(b.key) || a.provider.localeCompare(b.provider));
}

/** A brand's analysed answers as the detectors read them. */
@Injectable()
export class AnswerFactsReads {
  constructor(private readonly dataSource: DataSource) {}

  async series(f: AnswerFactsFilter): Promise<Series[]> {
    const sql = answerFactsSql(f);
    return seriesFromRows(await preparedQuery<SeriesRow>(poolOf(this.dataSource), sql.text, sql.params));
  }
}
