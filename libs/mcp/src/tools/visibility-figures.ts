import { Injectable } from '@nestjs/common';
import * as z from 'zod';
import { PROVIDERS, type Provider } from '@libs/analysis';
import { ApiError } from '@libs/http';
import { addDays, daysBetween, rate } from '@libs/metrics';
import { AeoMetrics, BrandIndex, GeoMetrics, SentimentSummary, ShareOfVoice } from '@libs/visibility';
import type { Principal } from '@libs/auth';
import { day, figure, marketOf } from '../mcp-tool';

/** The longest period a figure covers (as the REST reads: 366 days). */
export const MAX_PERIOD_DAYS = 366;
const SOV_PAGE = 200;

export const periodFields = {
  startDate: day('First day, included (default: 29 days before endDate)').optional(),
  endDate: day('Last day, included (default: today, or 29 days after startDate)').optional(),
};
export const providerField = z.enum(PROVIDERS).optional().describe('Only the answers of this AI engine');

/** A period as the REST reads take it, checked like them: end not before start, at most 366 days. */
export function checkPeriod(start: string | undefined, end: string | undefined, field = 'endDate'): void {
  if (start !== undefined && end !== undefined && (end < start || daysBetween(start, end) + 1 > MAX_PERIOD_DAYS)) {
    throw ApiError.validation([{ field, message: `the period must end on or after its start and span at most ${MAX_PERIOD_DAYS} days` }]);
  }
}

export const figuresSchema = z.object({
  brand: z.object({ id: z.string(), name: z.string(), kind: z.string() }),
  startDate: z.string(),
  endDate: z.string(),
  provider: z.string().nullable(),
  mentionRate: figure.describe('Answers mentioning the brand / answers (GET /aeo/metrics)'),
  shareOfVoice: figure.describe("The brand's mentions / mentions of every tracked entity in the same answers (GET /visibility/sov, summed)"),
  citationRate: figure.describe("Answers citing the brand's domains / answers citing anything (GET /geo/metrics)"),
  sentiment: z.object({
    net: figure.describe('(positive - negative) / labelled x 100, in [-100, 100]; a mean, so no interval (GET /sentiment/summary)'),
    positiveRate: figure,
    negativeRate: figure,
  }),
  brandIndex: figure.extend({ startDate: z.string(), endDate: z.string() }).describe('0-100 over the 30 days up to the newest day with answers, whatever the period; n: its answers; a weighted composite, so no interval (GET /brand-index/latest)'),
});
export type Figures = z.infer<typeof figuresSchema>;

const noInterval = (m: { value: number | null; n: number }) => ({ value: m.value, n: m.n, low: null, high: null });

/**
 * A brand's headline figures over a period, from the visibility read use cases the REST routes
 * call (each figure is the REST response's own), for visibility_summary and compare_periods.
 * Share of voice is summed from the per-provider-and-query page (numerators and denominators,
 * exactly as the rollups re-aggregate).
 */
@Injectable()
export class VisibilityFigures {
  constructor(
    private readonly aeo: AeoMetrics,
    private readonly geo: GeoMetrics,
    private readonly sentiment: SentimentSummary,
    private readonly sov: ShareOfVoice,
    private readonly index: BrandIndex,
  ) {}

  async of(p: Principal, q: { brandId: number; startDate?: string; endDate?: string; provider?: Provider; country?: string; language?: string }, withIndex = true): Promise<Figures> {
    checkPeriod(q.startDate, q.endDate);
    const market = marketOf(q);
    const query = { brandId: q.brandId, startDate: q.startDate, endDate: q.endDate, provider: q.provider, ...market };
    const [aeo, geo, sentiment, sov, index] = await Promise.all([
      this.aeo.read(p, query),
      this.geo.read(p, query),
      this.sentiment.read(p, query),
      this.shareOfVoice(p, query),
      withIndex ? this.index.read(p, { brandId: q.brandId, ...market }) : null,
    ]);
    const s = sentiment.data;
    const mentionRateN = index?.data.components.find((c) => c.name === 'mentionRate')?.n ?? 0;
    return {
      brand: aeo.data.brand,
      startDate: aeo.data.startDate,
      endDate: aeo.data.endDate,
      provider: q.provider ?? null,
      mentionRate: aeo.data.overall.mentionRate,
      shareOfVoice: sov,
      citationRate: geo.data.overall.citationRate,
      sentiment: { net: noInterval(s.netSentiment), positiveRate: s.positiveRate, negativeRate: s.negativeRate },
      brandIndex: index
        ? { ...noInterval({ value: index.data.value, n: mentionRateN }), startDate: index.data.startDate, endDate: index.data.endDate }
        : { value: null, n: 0, low: null, high: null, startDate: '', endDate: '' },
    };
  }

  /** The brand's share of voice over the period: its mentions / all tracked entities' mentions, over every provider-and-query group. */
  private async shareOfVoice(p: Principal, q: { brandId: number; startDate?: string; endDate?: string; provider?: Provider; country?: string; language?: string }) {
    let brandMentions = 0;
    let allMentions = 0;
    for (let offset = 0; ; offset += SOV_PAGE) {
      const page = await this.sov.read(p, { ...q, limit: SOV_PAGE, offset, order: 'desc' } as Parameters<ShareOfVoice['read']>[1]);
      for (const group of page.data) {
        for (const e of group.entries) {
          allMentions += e.mentions;
          if (e.entity.id === group.brand.id) brandMentions += e.mentions;
        }
      }
      if (!page.meta.hasMore) break;
    }
    return rate(brandMentions, allMentions);
  }
}

/** The day before `day`, and the same-length period ending there (compare_periods' default "before"). */
export function previousPeriod(start: string, end: string): { startDate: string; endDate: string } {
  const length = daysBetween(start, end) + 1;
  return { startDate: addDays(start, -length), endDate: addDays(start, -1) };
}
