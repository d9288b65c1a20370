import { Injectable } from '@nestjs/common';
import { addDays, utcDay, type DayKey } from '@libs/metrics';
import { BrandAccess, TenancyRepository } from '@libs/tenancy';
import { brandFigures, type BrandFigures } from '../read-model/brand-figures';
import { RollupReads } from '../read-model/rollup-reads';

export interface ReportRow {
  provider: string;
  answers: number;
  mentionRate: number | null;
  mentionRateLow: number | null;
  mentionRateHigh: number | null;
  shareOfVoice: number | null;
  averagePosition: number | null;
  top3Rate: number | null;
  netSentiment: number | null;
  citationRate: number | null;
  visibilityShare: number | null;
}

export interface VisibilityReportResult {
  brandId: number;
  brand: string;
  startDate: DayKey;
  endDate: DayKey;
  rows: ReportRow[];
}

const row = (provider: string, f: BrandFigures): ReportRow => ({
  provider,
  answers: f.mentionRate.n,
  mentionRate: f.mentionRate.value,
  mentionRateLow: f.mentionRate.low,
  mentionRateHigh: f.mentionRate.high,
  shareOfVoice: f.shareOfVoice.value,
  averagePosition: f.averagePosition.value,
  top3Rate: f.top3Rate.value,
  netSentiment: f.sentiment.net.value,
  citationRate: f.citationRate.value,
  visibilityShare: f.visibilityShare.value,
});

/** The brand's figures over its last days, overall and per provider, for the operator's CLI (`report visibility`). */
@Injectable()
export class VisibilityReport {
  constructor(
    private readonly brandAccess: BrandAccess,
    private readonly tenancy: TenancyRepository,
    private readonly rollups: RollupReads,
  ) {}

  async report(brandId: number, days: number, today: DayKey = utcDay(Date.now())): Promise<VisibilityReportResult> {
    const owner = await this.brandAccess.ownerOf(brandId);
    const brand = owner && (await this.tenancy.findBrand({ organizationId: owner.organizationId, clientId: null }, brandId));
    if (!brand) throw new RangeError(`brand ${brandId} does not exist`);
    const organizationId = brand.organizationId;
    const start = addDays(today, -(days - 1));
    const brandEntityId = `brand-${brandId}`;
    const f = brandFigures({ brandEntityId }, await this.rollups.sums({ organizationId, brandId, start, end: today }, ['provider']));
    return { brandId, brand: brand.name, startDate: start, endDate: today, rows: [row('all', f.overall), ...f.providers.map((p) => row(p.provider, p))] };
  }
}

const COLUMNS: (keyof ReportRow)[] = ['provider', 'answers', 'mentionRate', 'mentionRateLow', 'mentionRateHigh', 'shareOfVoice', 'averagePosition', 'top3Rate', 'netSentiment', 'citationRate', 'visibilityShare'];

/** CSV (RFC 4180): a header, then a row a provider; empty cells for figures without data. */
export function reportCsv(r: VisibilityReportResult): string {
  const cell = (v: unknown) => (v === null ? '' : /[",\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v));
  return [COLUMNS.join(','), ...r.rows.map((x) => COLUMNS.map((c) => cell(x[c])).join(','))].join('\n') + '\n';
}

/** A table for a terminal: percentages, the interval beside the mention rate, "–" where there is no data. */
export function reportTable(r: VisibilityReportResult): string {
  const pct = (v: number | null) => (v === null ? '–' : `${(v * 100).toFixed(1)}%`);
  const num = (v: number | null, d = 2) => (v === null ? '–' : v.toFixed(d));
  const header = ['provider', 'answers', 'mention rate (95% CI)', 'share of voice', 'avg position', 'top-3', 'net sentiment', 'citation rate', 'visibility'];
  const lines = r.rows.map((x) => [
    x.provider,
    String(x.answers),
    x.mentionRate === null ? '–' : `${pct(x.mentionRate)} (${pct(x.mentionRateLow)}–${pct(x.mentionRateHigh)})`,
    pct(x.shareOfVoice),
    num(x.averagePosition),
    pct(x.top3Rate),
    num(x.netSentiment, 0),
    pct(x.citationRate),
    pct(x.visibilityShare),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [`${r.brand} (brand ${r.brandId}), ${r.startDate} to ${r.endDate}`, fmt(header), ...lines.map(fmt)].join('\n') + '\n';
}
