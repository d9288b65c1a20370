import type { Command } from 'commander';
import { BrandIndexWeightsRepository, parseWeights, reportCsv, reportTable, VisibilityReport, WeightsInputError } from '@libs/visibility';
import { CliUsageError, toJson, type CliContext } from '../cli-context';
import { positiveInt } from './tenancy.command';

type Run = (fn: (ctx: CliContext) => Promise<void>) => Promise<void>;

const usage = (error: unknown) => (error instanceof RangeError || error instanceof WeightsInputError ? new CliUsageError(error.message) : error);

/** `report visibility` and `brand-index weights` (DESIGN §14 figures for the operator). */
export function registerVisibility(program: Command, run: Run, json: () => boolean): void {
  program
    .command('report')
    .description('analytics reports')
    .command('visibility')
    .description("a brand's visibility figures over its last days, overall and per provider")
    .requiredOption('--brand <id>', 'brand id')
    .option('--days <n>', 'days up to today (UTC), 1-365 (default 30)')
    .option('--format <format>', 'table | json | csv (default table; json with --json)')
    .action((opts: { brand: string; days?: string; format?: string }) =>
      run(async (ctx) => {
        const days = positiveInt('--days', opts.days) ?? 30;
        if (days > 365) throw new CliUsageError('--days must be from 1 to 365');
        const format = opts.format ?? (json() ? 'json' : 'table');
        if (!['table', 'json', 'csv'].includes(format)) throw new CliUsageError('--format must be table, json or csv');
        const report = await (await ctx.get(VisibilityReport)).report(positiveInt('--brand', opts.brand)!, days).catch((e: unknown) => {
          throw usage(e);
        });
        process.stdout.write(format === 'json' ? toJson(report) + '\n' : format === 'csv' ? reportCsv(report) : reportTable(report));
      }),
    );

  program
    .command('brand-index')
    .description('the brand index')
    .command('weights')
    .description("show, set or reset an organisation's brand-index weights (percent; unset components keep the defaults)")
    .requiredOption('--org <id>', 'organisation id')
    .option('--set <list>', 'e.g. mentionRate=40,shareOfVoice=20,netSentiment=15,citationRate=15,visibilityShare=10')
    .option('--reset', 'back to the defaults of DESIGN §14')
    .action((opts: { org: string; set?: string; reset?: boolean }) =>
      run(async (ctx) => {
        const org = positiveInt('--org', opts.org)!;
        if (opts.set !== undefined && opts.reset) throw new CliUsageError('--set and --reset do not go together');
        const repo = await ctx.get(BrandIndexWeightsRepository);
        let result: Awaited<ReturnType<BrandIndexWeightsRepository['of']>>;
        try {
          result = await (opts.reset ? repo.set(org, null) : opts.set !== undefined ? repo.set(org, parseWeights(opts.set)) : repo.of(org));
        } catch (e) {
          throw usage(e);
        }
        const text = Object.entries(result.weights).map(([k, v]) => `${k}=${v}`).join(', ');
        process.stdout.write((json() ? toJson({ organizationId: org, ...result }) : `organisation ${org}: ${text}${result.custom ? '' : ' (defaults)'}`) + '\n');
      }),
    );
}
