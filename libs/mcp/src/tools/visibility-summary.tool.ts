import { Injectable } from '@nestjs/common';
import * as z from 'zod';
import { READ_ONLY, id, marketFields, type McpTool, type ToolAnswer, type ToolContext } from '../mcp-tool';
import { VisibilityFigures, figuresSchema, periodFields, providerField } from './visibility-figures';

const input = z.strictObject({ brandId: id('The brand (list_brands)'), ...periodFields, provider: providerField, ...marketFields });
const output = figuresSchema;

const pct = (f: { value: number | null; n: number; low: number | null; high: number | null }) =>
  f.value === null ? 'no data (n = 0)' : `${(f.value * 100).toFixed(1)}%${f.low === null ? '' : ` [${(f.low * 100).toFixed(1)}–${(f.high! * 100).toFixed(1)}]`} (n = ${f.n})`;

/** The brand's headline figures over a period, each {value, n, low, high} (GET /aeo/metrics, /geo/metrics, /sentiment/summary, /visibility/sov, /brand-index/latest). */
@Injectable()
export class VisibilitySummaryTool implements McpTool<typeof input, typeof output> {
  readonly name = 'visibility_summary';
  readonly title = 'Visibility summary';
  readonly description =
    "A brand's visibility in AI answers over a period (default the last 30 days), optionally for one engine: mention rate, share of voice, citation rate, sentiment and the brand index, each with its sample size n and 95 % interval.";
  readonly scope = 'read:visibility' as const;
  readonly input = input;
  readonly output = output;
  readonly annotations = READ_ONLY;

  constructor(private readonly figures: VisibilityFigures) {}

  async run({ principal }: ToolContext, args: z.infer<typeof input>): Promise<ToolAnswer<z.infer<typeof output>>> {
    const f = await this.figures.of(principal, args);
    return {
      data: f,
      summary: `Brand #${args.brandId}, ${f.startDate} to ${f.endDate}${f.provider ? ` on ${f.provider}` : ''}: mention rate ${pct(f.mentionRate)}, share of voice ${pct(f.shareOfVoice)}, citation rate ${pct(f.citationRate)}, net sentiment ${f.sentiment.net.value === null ? 'no data' : f.sentiment.net.value.toFixed(1)} (n = ${f.sentiment.net.n}), brand index ${f.brandIndex.value === null ? 'no data' : f.brandIndex.value.toFixed(1)}.`,
    };
  }
}
