import { Injectable } from '@nestjs/common';
import * as z from 'zod';
import { ApiError } from '@libs/http';
import { twoProportionTest } from '@libs/metrics';
import { READ_ONLY, day, figure, id, marketFields, type McpTool, type ToolAnswer, type ToolContext } from '../mcp-tool';
import { VisibilityFigures, checkPeriod, previousPeriod, providerField, type Figures } from './visibility-figures';

/** A change is called significant below this p-value (two-sided). */
export const SIGNIFICANCE_LEVEL = 0.05;

const input = z.strictObject({
  brandId: id('The brand (list_brands)'),
  startDate: day('First day of the period looked at, included'),
  endDate: day('Last day of the period looked at, included'),
  beforeStartDate: day('First day of the period compared with (default: the same length just before)').optional(),
  beforeEndDate: day('Last day of the period compared with').optional(),
  provider: providerField,
  ...marketFields,
});

const change = z.object({
  figure: z.string(),
  before: figure,
  after: figure,
  difference: z.number().nullable().describe('after - before; null when either side has no data'),
  test: z.enum(['two-proportion z-test', 'none']).describe('DESIGN §14: rates are compared with the pooled two-proportion z-test; a mean has no test here'),
  z: z.number().nullable(),
  pValue: z.number().nullable().describe('Two-sided p-value of "no change"'),
  verdict: z.enum(['significant increase', 'significant decrease', 'not significant', 'not tested']).describe(`significant when p < ${SIGNIFICANCE_LEVEL}`),
});
const output = z.object({
  brandId: z.number().int(),
  provider: z.string().nullable(),
  before: z.object({ startDate: z.string(), endDate: z.string() }),
  after: z.object({ startDate: z.string(), endDate: z.string() }),
  significanceLevel: z.number(),
  changes: z.array(change),
});

type Fig = { value: number | null; n: number; low: number | null; high: number | null };
const RATES: [string, (f: Figures) => Fig][] = [
  ['mentionRate', (f) => f.mentionRate],
  ['shareOfVoice', (f) => f.shareOfVoice],
  ['citationRate', (f) => f.citationRate],
  ['positiveSentimentRate', (f) => f.sentiment.positiveRate],
  ['negativeSentimentRate', (f) => f.sentiment.negativeRate],
];

/** The rate's successes: value × n is an integer count (rates are stored as counts, DESIGN §14). */
const counts = (f: Fig) => ({ k: f.value === null ? 0 : Math.round(f.value * f.n), n: f.n });

function tested(name: string, before: Fig, after: Fig): z.infer<typeof change> {
  const t = twoProportionTest(counts(before), counts(after));
  const verdict = t.pValue === null ? 'not tested' : t.pValue >= SIGNIFICANCE_LEVEL ? 'not significant' : t.difference! > 0 ? 'significant increase' : 'significant decrease';
  return { figure: name, before, after, difference: t.difference, test: 'two-proportion z-test', z: t.z, pValue: t.pValue, verdict };
}

/** Two periods of a brand compared figure by figure, each change with the DESIGN §14 test and its p-value. */
@Injectable()
export class ComparePeriodsTool implements McpTool<typeof input, typeof output> {
  readonly name = 'compare_periods';
  readonly title = 'Compare two periods';
  readonly description = `A brand's figures in a period against another (by default the same length just before): each rate's change with the two-proportion z-test (DESIGN §14) and its p-value; a change with p ≥ ${SIGNIFICANCE_LEVEL} is reported as "not significant", not as a trend.`;
  readonly scope = 'read:visibility' as const;
  readonly input = input;
  readonly output = output;
  readonly annotations = READ_ONLY;

  constructor(private readonly figures: VisibilityFigures) {}

  async run({ principal }: ToolContext, args: z.infer<typeof input>): Promise<ToolAnswer<z.infer<typeof output>>> {
    checkPeriod(args.startDate, args.endDate);
    if ((args.beforeStartDate === undefined) !== (args.beforeEndDate === undefined)) {
      throw ApiError.validation([{ field: args.beforeStartDate === undefined ? 'beforeStartDate' : 'beforeEndDate', message: 'beforeStartDate and beforeEndDate go together' }]);
    }
    const beforePeriod = args.beforeStartDate !== undefined ? { startDate: args.beforeStartDate, endDate: args.beforeEndDate! } : previousPeriod(args.startDate, args.endDate);
    checkPeriod(beforePeriod.startDate, beforePeriod.endDate, 'beforeEndDate');
    const [before, after] = await Promise.all([
      this.figures.of(principal, { brandId: args.brandId, ...beforePeriod, provider: args.provider, country: args.country, language: args.language }, false),
      this.figures.of(principal, { brandId: args.brandId, startDate: args.startDate, endDate: args.endDate, provider: args.provider, country: args.country, language: args.language }, false),
    ]);
    const changes = RATES.map(([name, get]) => tested(name, get(before), get(after)));
    const net = { before: before.sentiment.net, after: after.sentiment.net };
    changes.push({
      figure: 'netSentiment',
      ...net,
      difference: net.before.value === null || net.after.value === null ? null : net.after.value - net.before.value,
      test: 'none',
      z: null,
      pValue: null,
      verdict: 'not tested',
    });
    const said = changes.filter((c) => c.test !== 'none').map((c) => `${c.figure} ${c.verdict}${c.pValue === null ? '' : ` (p = ${c.pValue.toPrecision(2)})`}`);
    return {
      data: { brandId: args.brandId, provider: args.provider ?? null, before: { startDate: before.startDate, endDate: before.endDate }, after: { startDate: after.startDate, endDate: after.endDate }, significanceLevel: SIGNIFICANCE_LEVEL, changes },
      summary: `Brand #${args.brandId}, ${after.startDate}–${after.endDate} against ${before.startDate}–${before.endDate}: ${said.join('; ')}.`,
    };
  }
}
