import { Command } from 'commander';
import type { CliContext } from './cli-context';

/** Runs a command's body in a CLI context (configuration, database, services), reporting its error. */
export type Run = (fn: (ctx: CliContext) => Promise<void>) => Promise<void>;

/** What every command file's `register…` function is handed. */
export interface CommandDeps {
  run: Run;
  fail: (error: unknown) => void;
  json: () => boolean;
}

/**
 * A command file (commands/*.command.ts): the top-level commands it adds, each with the
 * description `cli --help` lists, and how to load and register it. A file is loaded only when one
 * of its commands is asked for: `cli --help` loads none (it lists these names), `cli key create`
 * loads keys.command.ts and what it imports, not the fifteen others and the whole service.
 * test/cli-program.unit.spec.ts checks these names and descriptions against what the files register.
 */
interface CommandGroup {
  commands: Readonly<Record<string, string>>;
  register(program: Command, deps: CommandDeps): Promise<void>;
}

/** Every command file, in the order `cli --help` lists their commands. */
export const COMMAND_GROUPS: readonly CommandGroup[] = [
  {
    commands: { db: 'database administration' },
    register: async (p, d) => (await import('./commands/db.command')).registerDb(p, d.run, d.json),
  },
  {
    commands: { events: 'read the event store' },
    register: async (p, d) => (await import('./commands/events-tail.command')).registerEventsTail(p, d.run),
  },
  {
    commands: { projections: 'read models built from the event feed' },
    register: async (p, d) => (await import('./commands/projections.command')).registerProjections(p, d.run, d.json),
  },
  {
    commands: { answers: 'AI-answer analysis' },
    register: async (p, d) => (await import('./commands/answers.command')).registerAnswers(p, d.fail, d.run, d.json),
  },
  {
    commands: { judge: "an organisation's sentiment judge" },
    register: async (p, d) => (await import('./commands/judge.command')).registerJudge(p, d.run, d.json),
  },
  {
    commands: { org: 'organisations', client: "an organisation's clients", brand: 'brands and their competitors', competitor: "a brand's competitors" },
    register: async (p, d) => (await import('./commands/tenancy.command')).registerTenancy(p, d.run, d.json),
  },
  {
    commands: { key: 'API keys' },
    register: async (p, d) => (await import('./commands/keys.command')).registerKeys(p, d.run, d.json),
  },
  {
    commands: { seed: 'demo data' },
    register: async (p, d) => (await import('./commands/seed.command')).registerSeed(p, d.run, d.json),
  },
  {
    commands: { 'oauth-client': 'OAuth 2.0 clients' },
    register: async (p, d) => (await import('./commands/oauth.command')).registerOAuth(p, d.run, d.json),
  },
  {
    commands: { webhooks: 'Webhook subscriptions' },
    register: async (p, d) => (await import('./commands/webhooks.command')).registerWebhooks(p, d.run, d.json),
  },
  {
    // `brand schedule` lives here too: under the brand command tenancy.command.ts makes (or its own).
    commands: { prompt: "a brand's tracked prompts", brand: 'brands and their competitors' },
    register: async (p, d) => (await import('./commands/prompts.command')).registerPrompts(p, d.run, d.json),
  },
  {
    commands: { report: 'analytics reports', 'brand-index': 'the brand index' },
    register: async (p, d) => (await import('./commands/visibility.command')).registerVisibility(p, d.run, d.json),
  },
  {
    commands: { 'page-audit': "GEO audits of a brand's pages" },
    register: async (p, d) => (await import('./commands/page-audits.command')).registerPageAudits(p, d.run, d.json),
  },
  {
    commands: { detectors: 'the detectors that open opportunities from the analysed answers' },
    register: async (p, d) => (await import('./commands/detectors.command')).registerDetectors(p, d.run, d.json),
  },
  {
    commands: { metrics: 'channel metrics', channels: 'channels of a client (DESIGN §13.3)' },
    register: async (p, d) => (await import('./commands/channels.command')).registerChannels(p, d.run, d.json),
  },
  {
    commands: { logs: 'AI agents on your sites: CDN and server logs', bots: 'the catalogue of AI agents' },
    register: async (p, d) => (await import('./commands/agent-analytics.command')).registerAgentAnalytics(p, d.run, d.json),
  },
  {
    commands: { budget: "an organisation's budgets for the AI providers' answers" },
    register: async (p, d) => (await import('./commands/budgets.command')).registerBudgets(p, d.run, d.json),
  },
];

/** The top-level command the arguments ask for (`cli --json key create` → key, `cli help brand` → brand), if any. */
export function requestedCommand(args: readonly string[]): string | null {
  const words = args.filter((a) => !a.startsWith('-'));
  return (words[0] === 'help' ? words[1] : words[0]) ?? null;
}

/** The program without commands: its name, description and global options. */
export function baseProgram(): Command {
  return new Command('cli')
    .description('AI visibility service administration')
    .option('--json', 'print one JSON document on stdout')
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
}

/**
 * The program for these arguments (process.argv.slice(2)): with the command files that add the
 * asked-for command registered, or, when none is asked for (or an unknown one), every top-level
 * command as a name and description only, for the help and the "unknown command" answer.
 */
export async function buildProgram(args: readonly string[], deps: CommandDeps, program: Command = baseProgram()): Promise<Command> {
  const asked = requestedCommand(args);
  const groups = COMMAND_GROUPS.filter((g) => asked !== null && Object.hasOwn(g.commands, asked));
  if (groups.length) {
    for (const group of groups) await group.register(program, deps);
    return program;
  }
  const listed = new Set<string>();
  for (const group of COMMAND_GROUPS) {
    for (const [name, description] of Object.entries(group.commands)) {
      if (!listed.has(name)) program.command(name).description(description);
      listed.add(name);
    }
  }
  return program;
}
