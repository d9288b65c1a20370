import type { Command } from 'commander';
import { isTier, type Tier } from '@libs/auth';
import { TenancyRepository } from '@libs/tenancy';
import { CliUsageError, toJson, type CliContext } from '../cli-context';

type Run = (fn: (ctx: CliContext) => Promise<void>) => Promise<void>;

export function positiveInt(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[0-9]{1,15}$/.test(value) || Number(value) < 1) throw new CliUsageError(`${name} must be a positive integer`);
  return Number(value);
}

export function tierOption(value: string | undefined): Tier | undefined {
  if (value === undefined) return undefined;
  if (!isTier(value)) throw new CliUsageError(`--tier must be free, standard, professional or enterprise`);
  return value;
}

function print(json: boolean, value: unknown, human: string): void {
  process.stdout.write((json ? toJson(value) : human) + '\n');
}

/** `org create`, `client create`, `brand create`. */
export function registerTenancy(program: Command, run: Run, json: () => boolean): void {
  program
    .command('org')
    .description('organisations')
    .command('create')
    .requiredOption('--name <name>', 'organisation name')
    .option('--tier <tier>', 'free | standard | professional | enterprise (default free)')
    .action((opts: { name: string; tier?: string }) =>
      run(async (ctx) => {
        const org = await (await ctx.get(TenancyRepository)).createOrganization(opts.name, tierOption(opts.tier) ?? 'free');
        print(json(), { id: org.id, name: org.name, tier: org.tier }, `organisation ${org.id} "${org.name}" (${org.tier})`);
      }),
    );

  program
    .command('client')
    .description("an organisation's clients")
    .command('create')
    .requiredOption('--org <id>', 'organisation id')
    .requiredOption('--name <name>', 'client name')
    .action((opts: { org: string; name: string }) =>
      run(async (ctx) => {
        const c = await (await ctx.get(TenancyRepository)).createClient(positiveInt('--org', opts.org)!, opts.name);
        print(json(), { id: c.id, organizationId: c.organizationId, name: c.name }, `client ${c.id} "${c.name}" in organisation ${c.organizationId}`);
      }),
    );

  program
    .command('brand')
    .description('brands and their competitors')
    .command('create')
    .requiredOption('--org <id>', 'organisation id')
    .option('--client <id>', 'client id')
    .requiredOption('--name <name>', 'brand name')
    .requiredOption('--domain <domain>', 'brand domain, e.g. acme.com')
    .option('--alias <alias>', 'another name of the brand (repeatable)', (v: string, all: string[]) => [...all, v], [] as string[])
    .option('--competitor <NAME=DOMAIN>', 'a competitor brand (repeatable)', (v: string, all: string[]) => [...all, v], [] as string[])
    .action((opts: { org: string; client?: string; name: string; domain: string; alias: string[]; competitor: string[] }) =>
      run(async (ctx) => {
        const competitors = opts.competitor.map((c) => {
          const at = c.lastIndexOf('=');
          if (at <= 0 || at === c.length - 1) throw new CliUsageError(`--competitor takes NAME=DOMAIN, got "${c}"`);
          return { name: c.slice(0, at), domain: c.slice(at + 1) };
        });
        const b = await (await ctx.get(TenancyRepository)).createBrand({
          organizationId: positiveInt('--org', opts.org)!,
          clientId: positiveInt('--client', opts.client) ?? null,
          name: opts.name,
          domain: opts.domain,
          aliases: opts.alias,
          competitors,
        });
        print(json(), b, `brand ${b.id} "${b.name}" (${b.domain}) with ${b.competitors.length} competitor(s)`);
      }),
    );
}
