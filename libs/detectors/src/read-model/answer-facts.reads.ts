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
  entities: { entityId: string; kind: string; name: string; mentioned: boolean; mentions: number; rank: number | null; sentiment: AnswerFact['brand']['sentiment'] }[];
  cited: boolean;
  with_citations: boolean;
  competitor_domains: string[];
  contradictions: (AnswerFact['contradictions'][number] & { agrees?: boolean })[];
}

/**
 * The statement behind AnswerFactsReads (also run by the benchmark's bare server): a brand's
 * analysed answers (the latest analysis of each, as `analysis_results` keeps it), newest
 * `perSeries` of each prompt × provider (one scan: the jsonb is only read for the rows kept);
 * citations and claims reduced in SQL (jsonb containment and path queries), the few entities read whole. Failed answers
 * are not answers: a provider down for a run leaves no row here.
 */
export function answerFactsSql(f: AnswerFactsFilter): { text: string; params: unknown[] } {
  return {
    text: `SELECT id, run_id, prompt_id, query, provider, asked_at, entities,
  citations @> '[{"owner": "brand"}]' AS cited,
  jsonb_array_length(citations) > 0 AS with_citations,
  jsonb_path_query_array(citations, '$[*] ? (@.owner == "competitor").domain') AS competitor_domains,
  CASE WHEN claims = '[]' THEN claims ELSE jsonb_path_query_array(claims, '$[*] ? (@.agrees == false)') END AS contradictions
FROM (
  SELECT id, run_id, prompt_id, query, provider, asked_at, entities, citations, claims,
    row_number() OVER (PARTITION BY prompt_id, CASE WHEN prompt_id IS NULL THEN query END, provider ORDER BY asked_at DESC, id DESC) AS rn
  FROM analysis_results
  WHERE organization_id = $1 AND brand_id = $2 AND status = 'answered' AND engine_version IS NOT NULL
    AND asked_at >= $3::timestamptz AND asked_at < $4::timestamptz
) x WHERE rn <= $5`,
    params: [f.organizationId, f.brandId, (f.since ?? new Date(0)).toISOString(), (f.until ?? new Date('9999-01-01T00:00:00Z')).toISOString(), f.perSeries],
  };
}

/** Rows of `answerFactsSql` as series (oldest answer first), sorted by prompt and provider. */
export function seriesFromRows(rows: readonly Row[], brandId: number): Series[] {
  const brandEntity = `brand-${brandId}`;
  const bySeries = new Map<string, Series>();
  for (const r of rows) {
    const promptId = r.prompt_id === null ? null : Number(r.prompt_id);
    const key = seriesKey(promptId, r.query);
    const id = `${key}\u0000${r.provider}`;
    let s = bySeries.get(id);
    if (!s) bySeries.set(id, (s = { key, promptId, query: r.query, provider: r.provider, answers: [] }));
    const b = r.entities.find((e) => e.entityId === brandEntity);
    s.answers.push({
      resultId: r.id,
      runId: Number(r.run_id),
      promptId,
      query: r.query,
      provider: r.provider,
      askedAt: new Date(r.asked_at).toISOString(),
      brand: { mentioned: b?.mentioned ?? false, mentions: b?.mentions ?? 0, rank: b?.rank ?? null, sentiment: b?.sentiment ?? null },
      totalMentions: r.entities.reduce((n, e) => n + e.mentions, 0),
      competitors: r.entities.filter((e) => e.kind === 'competitor').map((e) => ({ entityId: e.entityId, name: e.name, mentioned: e.mentioned })),
      cited: r.cited,
      withCitations: r.with_citations,
      competitorDomains: [...new Set(r.competitor_domains)],
      contradictions: r.contradictions.map((c) => ({ fact: c.fact, claimed: c.claimed, expected: c.expected, sentence: c.sentence })),
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
    return seriesFromRows(await preparedQuery<Row>(poolOf(this.dataSource), sql.text, sql.params), f.brandId);
  }
}
