import type { Command } from 'commander';
import { seedDemo } from '../seed/seed-demo';
import { toJson, type CliContext } from '../cli-context';
import { positiveInt } from './tenancy.command';

type Run = (fn: (ctx: CliContext) => Promise<void>) => Promise<void>;

/** `seed demo`: a realistic demo organisation; prints what it made (keys included). */
export function registerSeed(program: Command, run: Run, json: () => boolean): void {
  program
    .command('seed')
    .description('demo data')
    .command('demo')
    .option('--opportunities <n>', 'how many opportunities (default 320)')
    .option('--history-days <n>', 'days of daily analysis runs per brand (default 90; the closed loop\'s story needs 90)')
    .action((opts: { opportunities?: string; historyDays?: string }) =>
      run(async (ctx) => {
        const seeded = await seedDemo(ctx.config, { opportunities: positiveInt('--opportunities', opts.opportunities), historyDays: positiveInt('--history-days', opts.historyDays) });
        if (json()) {
          process.stdout.write(toJson(seeded) + '\n');
          return;
        }
        process.stdout.write(
          [
            `organisation ${seeded.organization.id} "${seeded.organization.name}" (${seeded.organization.tier})`,
            ...seeded.brands.map((b) => `  brand ${b.id} ${b.name} (${b.domain}) vs ${b.competitors.join(', ')}`),
            `  ${seeded.opportunities} opportunities, ${seeded.resolvedWithOutcome} resolved with outcomes`,
            `  ${seeded.prompts} tracked prompts a brand, ${seeded.historyDays} days of daily runs: ${seeded.answers} answers`,
            `  ${seeded.botVisits} AI-agent visits to ${seeded.brands[0].domain} over the last 30 days`,
            seeded.loop
              ? `  closed loop: ${seeded.loop.opened} opportunities opened by the detectors over the history; ${seeded.loop.stories.map((s) => `${s.name} #${s.opportunityId} (${s.status})`).join(', ')}`
              : `  closed loop: not told (it needs 90 days of history)`,
            ...seeded.keys.map((k) => `  key ${k.id} (${k.name}): ${k.key}`),
          ].join('\n') + '\n',
        );
      }),
    );
}
