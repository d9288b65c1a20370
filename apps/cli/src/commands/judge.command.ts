import type { Command } from 'commander';
import { JUDGE_PROVIDERS, JudgeSettingsRepository, type JudgeProvider } from '@libs/analysis';
import { CliUsageError, toJson, type CliContext } from '../cli-context';
import { positiveInt } from './tenancy.command';

/** `judge set --org ID --provider openai|anthropic|off [--model M]` and `judge show --org ID` (DESIGN §17): an organisation's sentiment judge. */
export function registerJudge(program: Command, run: (fn: (ctx: CliContext) => Promise<void>) => Promise<void>, json: () => boolean): void {
  const judge = program.command('judge').description("an organisation's sentiment judge");
  const print = (s: { organizationId: number; provider: string; model: string | null; updatedAt: string | null }) =>
    process.stdout.write((json() ? toJson(s) : `organisation ${s.organizationId}: sentiment judge ${s.provider}${s.model ? ` (model ${s.model})` : ''}`) + '\n');
  judge
    .command('set')
    .description('turn the sentiment judge on (a provider) or off for an organisation (off by default)')
    .requiredOption('--org <id>', 'organisation id')
    .requiredOption('--provider <name>', 'openai, anthropic or off')
    .option('--model <model>', "the judge's model (default: SENTIMENT_JUDGE_MODEL)")
    .action((opts: { org: string; provider: string; model?: string }) =>
      run(async (ctx) => {
        const organizationId = positiveInt('--org', opts.org)!;
        if (opts.provider !== 'off' && !JUDGE_PROVIDERS.includes(opts.provider as JudgeProvider)) throw new CliUsageError('--provider must be openai, anthropic or off');
        if (opts.model !== undefined && (opts.provider === 'off' || !/^[A-Za-z0-9._:/-]{1,100}$/.test(opts.model))) {
          throw new CliUsageError(opts.provider === 'off' ? '--model needs a provider' : '--model must be a model name (letters, digits, . _ : / -)');
        }
        const settings = await (await ctx.get(JudgeSettingsRepository)).set(organizationId, opts.provider as JudgeProvider | 'off', opts.model ?? null).catch((error: unknown) => {
          throw error instanceof RangeError ? new CliUsageError(error.message) : error;
        });
        print(settings);
      }),
    );
  judge
    .command('show')
    .description("an organisation's sentiment judge settings")
    .requiredOption('--org <id>', 'organisation id')
    .action((opts: { org: string }) =>
      run(async (ctx) => {
        print(await (await ctx.get(JudgeSettingsRepository)).get(positiveInt('--org', opts.org)!, true));
      }),
    );
}
