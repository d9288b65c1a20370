import type { Command } from 'commander';
import { BudgetsRepository, type BudgetChange } from '@libs/analysis';
import { CliUsageError, toJson, type CliContext } from '../cli-context';
import { positiveInt } from './tenancy.command';

type Run = (fn: (ctx: CliContext) => Promise<void>) => Promise<void>;

/** A budget option: a number of USD >= 0 (at most 6 decimals), or `none` to remove it; left out, undefined (kept). */
export function usdOption(name: string, value: string | undefined): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === 'none') return null;
  if (!/^[0-9]{1,8}(\.[0-9]{1,6})?$/.test(value)) throw new CliUsageError(`${name} must be a number of USD >= 0 (at most 6 decimals), or none`);
  return Number(value);
}

const usd = (v: number | null) => (v === null ? 'none' : `$${v.toFixed(2)}`);

/** `budget show|set` (issue 32 part 2): the organisation's budgets per UTC month and per run. */
export function registerBudgets(program: Command, run: Run, json: () => boolean): void {
  const budget = program.command('budget').description("an organisation's budgets for the AI providers' answers");
  const print = async (ctx: CliContext, org: number, change?: BudgetChange) => {
    const repo = await ctx.get(BudgetsRepository);
    const budgets = change ? await repo.set(org, change) : await repo.of(org);
    const currentMonth = await repo.monthSpend(org);
    const out = { ...budgets, currentMonth };
    process.stdout.write(
      (json()
        ? toJson(out)
        : `organisation ${org}: monthly ${usd(budgets.monthlyUsd)}, per run ${usd(budgets.perRunUsd)}; ${currentMonth.month}: $${currentMonth.spentUsd.toFixed(6)} spent, $${currentMonth.reservedUsd.toFixed(6)} reserved`) + '\n',
    );
  };
  budget
    .command('show')
    .description("show an organisation's budgets and this month's spend")
    .requiredOption('--org <id>', 'organisation id')
    .action((opts: { org: string }) => run(async (ctx) => print(ctx, positiveInt('--org', opts.org)!)));
  budget
    .command('set')
    .description("set an organisation's budgets (USD; `none` removes one, an option left out keeps its value)")
    .requiredOption('--org <id>', 'organisation id')
    .option('--monthly-usd <usd>', 'USD per UTC month, or none')
    .option('--per-run-usd <usd>', 'USD per run, or none')
    .action((opts: { org: string; monthlyUsd?: string; perRunUsd?: string }) =>
      run(async (ctx) => {
        const change: BudgetChange = {};
        const monthly = usdOption('--monthly-usd', opts.monthlyUsd);
        const perRun = usdOption('--per-run-usd', opts.perRunUsd);
        if (monthly === undefined && perRun === undefined) throw new CliUsageError('budget set needs --monthly-usd or --per-run-usd');
        if (monthly !== undefined) change.monthlyUsd = monthly;
        if (perRun !== undefined) change.perRunUsd = perRun;
        await print(ctx, positiveInt('--org', opts.org)!, change);
      }),
    );
}
