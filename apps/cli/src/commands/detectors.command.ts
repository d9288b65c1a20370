import type { Command } from 'commander';
import { DetectorThresholdsRepository, THRESHOLD_BOUNDS, THRESHOLD_NAMES, ThresholdsInputError, parseThresholds, type Thresholds } from '@libs/detectors';
import { CliUsageError, toJson, type CliContext } from '../cli-context';
import { positiveInt } from './tenancy.command';

type Run = (fn: (ctx: CliContext) => Promise<void>) => Promise<void>;

const usage = (error: unknown) => (error instanceof ThresholdsInputError ? new CliUsageError(error.message) : error);

/** `detectors thresholds`: an organisation's detector thresholds (issue 19). */
export function registerDetectors(program: Command, run: Run, json: () => boolean): void {
  program
    .command('detectors')
    .description('the detectors that open opportunities from the analysed answers')
    .command('thresholds')
    .description(
      `show, set or reset an organisation's detector thresholds (unset ones keep the defaults). Settings: ${THRESHOLD_NAMES.map((n) => `${n} (${THRESHOLD_BOUNDS[n].description})`).join('; ')}`,
    )
    .requiredOption('--org <id>', 'organisation id')
    .option('--set <list>', 'e.g. alpha=0.01,minSamples=10,outcomeWindowDays=14')
    .option('--reset', 'back to the defaults')
    .action((opts: { org: string; set?: string; reset?: boolean }) =>
      run(async (ctx) => {
        const org = positiveInt('--org', opts.org)!;
        if (opts.set !== undefined && opts.reset) throw new CliUsageError('--set and --reset do not go together');
        const repo = await ctx.get(DetectorThresholdsRepository);
        let result: { thresholds: Thresholds; custom: (keyof Thresholds)[] };
        try {
          if (opts.reset) result = await repo.set(org, null);
          else if (opts.set !== undefined) result = await repo.set(org, parseThresholds(opts.set, (await repo.of(org)).thresholds));
          else result = await repo.of(org);
        } catch (e) {
          throw usage(e);
        }
        const text = THRESHOLD_NAMES.map((n) => `${n}=${result.thresholds[n]}${result.custom.includes(n) ? ' (set)' : ''}`).join(', ');
        process.stdout.write((json() ? toJson({ organizationId: org, ...result }) : `organisation ${org}: ${text}`) + '\n');
      }),
    );
}
