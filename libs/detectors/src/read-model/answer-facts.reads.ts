import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { poolOf, preparedQuery } from '@libs/sql';
import { seriesKey, type AnswerFact, type Series } from '../domain';

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
  brand: { mentioned?: boolean; mentions?: number; rank?: number | null; sentiment?: AnswerFact['brand']['sentiment'] } | null;
  total_mentions: number;
  competitors: { entityId: string; name: string; mentioned: boolean }[];
  cited: boolean;
  with_citations: boolean;
  competitor_domains: string[];
  contradictions: AnswerFact['contradictions'];
}

/**
 * The statement behind AnswerFactsReads (also run by the benchmark's bare server): a brand's
 * analysed answers (the latest analysis of each, as `analysis_results` keeps it), newest
 * `perSeries` of each prompt × provider (chosen on cheap columns first), reduced in SQL to what
 * the detectors read. Failed answers are not answers: a provider down for a run leaves no row here.
 */
export function answerFactsSql(f: AnswerFactsFilter): { text: string; params: unknown[] } {
  return {
    text: `WITH latest AS (
  SELECT id FROM (
    SELECT id, row_number() OVER (PARTITION BY prompt_id, CASE WHEN prompt_id IS NULL THEN query END, provider ORDER BY asked_at DESC, id DESC) AS rn
    FROM analysis_results
    WHERE organization_id = $1 AND brand_id = $2 AND status = 'answered' AND engine_version IS NOT NULL
      AND asked_at >= $4::timestamptz AND asked_at < $5::timestamptz
  ) x WHERE rn <= $6
)
SELECT r.id, r.run_id, r.prompt_id, r.query, r.provider, r.asked_at,
  (SELECT e FROM jsonb_array_elements(r.entities) e WHERE e->>'entityId' = $3 LIMIT 1) AS brand,
  (SELECT coalesce(sum((e->>'mentions')::int), 0)::int FROM jsonb_array_elements(r.entities) e) AS total_mentions,
  (SELECT coalesce(jsonb_agg(jsonb_build_object('entityId', e->>'entityId', 'name', e->>'name', 'mentioned', (e->>'mentioned')::boolean)), '[]')
     FROM jsonb_array_elements(r.entities) e WHERE e->>'kind' = 'competitor') AS competitors,
  EXISTS (SELECT 1 FROM jsonb_array_elements(r.citations) c WHERE c->>'owner' = 'brand') AS cited,
  jsonb_array_length(r.citations) > 0 AS with_citations,
  ARRAY(SELECT DISTINCT c->>'domain' FROM jsonb_array_elements(r.citations) c WHERE c->>'owner' = 'competitor') AS competitor_domains,
  (SELECT coalesce(jsonb_agg(jsonb_build_object('fact', c->>'fact', 'claimed', c->>'claimed', 'expected', c->>'expected', 'sentence', c->>'sentence')), '[]')
     FROM jsonb_array_elements(r.claims) c WHERE c->>'agrees' = 'false') AS contradictions
FROM latest JOIN analysis_results r ON r.id = latest.id`,
    params: [f.organizationId, f.brandId, `brand-${f.brandId}`, (f.since ?? new Date(0)).toISOString(), (f.until ?? new Date('9999-01-01T00:00:00Z')).toISOString(), f.perSeries],
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
    const b = r.brand ?? {};
    s.answers.push({
      resultId: r.id,
      runId: Number(r.run_id),
      promptId,
      query: r.query,
      provider: r.provider,
      askedAt: new Date(r.asked_at).toISOString(),
      brand: { mentioned: b.mentioned ?? false, mentions: b.mentions ?? 0, rank: b.rank ?? null, sentiment: b.sentiment ?? null },
      totalMentions: r.total_mentions,
      competitors: r.competitors,
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
