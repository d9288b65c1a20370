import 'reflect-metadata';
import { Command, CommanderError } from 'commander';
import { ConfigError } from '@libs/config';
import { CliContext, CliUsageError } from './cli-context';
import { TenancyInputError } from '@libs/tenancy';
import { ApiKeyInputError } from '@libs/auth';
import { registerAnswers } from './commands/answers.command';
import { registerDb } from './commands/db.command';
import { registerEventsTail } from './commands/events-tail.command';
import { registerProjections } from './commands/projections.command';
import { registerTenancy } from './commands/tenancy.command';
import { registerKeys } from './commands/keys.command';
import { registerSeed } from './commands/seed.command';
import { registerOAuth } from './commands/oauth.command';
import { registerWebhooks } from './commands/webhooks.command';
import { registerPrompts } from './commands/prompts.command';
import { registerVisibility } from './commands/visibility.command';
import { registerPageAudits } from './commands/page-audits.command';
import { registerDetectors } from './commands/detectors.command';
import { registerChannels } from './commands/channels.command';
import { registerAgentAnalytics } from './commands/agent-analytics.command';

/**
 * The administration CLI: `npm run --silent cli -- <command>`. With --json a command prints
 * exactly one JSON document on stdout; errors go to stderr with a non-zero exit code.
 */
const program = new Command('cli')
  .description('AI visibility service administration')
  .option('--json', 'print one JSON document on stdout')
  .exitOverride()
  .configureOutput({ writeErr: (s) => process.stderr.write(s) });

const json = () => Boolean(program.opts<{ json?: boolean }>().json);

function fail(error: unknown): void {
  if (error instanceof ConfigError) for (const p of error.problems) process.stderr.write(`configuration error: ${p}\n`);
  else process.stderr.write(`error: ${(error as Error).message ?? String(error)}\n`);
  const usage = error instanceof CliUsageError || error instanceof TenancyInputError || error instanceof ApiKeyInputError;
  process.exitCode = usage ? 2 : 1;
}

async function run(fn: (ctx: CliContext) => Promise<void>): Promise<void> {
  let ctx: CliContext | null = null;
  try {
    ctx = new CliContext();
    await fn(ctx);
  } catch (error) {
    fail(error);
  } finally {
    await ctx?.close().catch(() => undefined);
  }
}

registerDb(program, run, json);
registerEventsTail(program, run);
registerProjections(program, run, json);
registerAnswers(program, fail, run, json);
registerTenancy(program, run, json);
registerKeys(program, run, json);
registerSeed(program, run, json);
registerOAuth(program, run, json);
registerWebhooks(program, run, json);
registerPrompts(program, run, json);
registerVisibility(program, run, json);
registerPageAudits(program, run, json);
registerDetectors(program, run, json);
registerChannels(program, run, json);
registerAgentAnalytics(program, run, json);

program.parseAsync(process.argv).catch((error: unknown) => {
  if (error instanceof CommanderError) {
    process.exitCode = error.exitCode === 0 ? 0 : 2;
    return;
  }
  process.stderr.write(`error: ${(error as Error).message}\n`);
  process.exitCode = 1;
});
