import { readFileSync } from 'node:fs';
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

/** `org create`, `client create`, `brand create`, and aliases and extra domains of brands and competitors. */
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

  const brand = program.command('brand').description('brands and their competitors');
  brand
    .command('create')
    .requiredOption('--org <id>', 'organisation id')
    .option('--client <id>', 'client id')
    .option('--name <name>', 'brand name')
    .option('--domain <domain>', 'brand domain, e.g. acme.com')
    .option('--alias <alias>', 'another name of the brand (repeatable)', repeat, [] as string[])
    .option('--competitor <NAME=DOMAIN>', 'a competitor brand (repeatable)', repeat, [] as string[])
    .option('--entities-file <file>', 'a JSON list of {kind: brand|competitor, name, aliases, domains}: one brand and its competitors (the corpus format)')
    .action((opts: { org: string; client?: string; name?: string; domain?: string; alias: string[]; competitor: string[]; entitiesFile?: string }) =>
      run(async (ctx) => {
        let input: Omit<Parameters<TenancyRepository['createBrand']>[0], 'organizationId' | 'clientId'>;
        if (opts.entitiesFile !== undefined) {
          if (opts.name !== undefined || opts.domain !== undefined || opts.competitor.length || opts.alias.length) {
            throw new CliUsageError('--entities-file names the brand and its competitors: leave out --name, --domain, --alias and --competitor');
          }
          input = entitiesFromFile(opts.entitiesFile);
        } else {
          if (opts.name === undefined || opts.domain === undefined) throw new CliUsageError('brand create needs --name and --domain, or --entities-file');
          const competitors = opts.competitor.map((c) => {
            const at = c.lastIndexOf('=');
            if (at <= 0 || at === c.length - 1) throw new CliUsageError(`--competitor takes NAME=DOMAIN, got "${c}"`);
            return { name: c.slice(0, at), domain: c.slice(at + 1) };
          });
          input = { name: opts.name, domain: opts.domain, aliases: opts.alias, competitors };
        }
        const b = await (await ctx.get(TenancyRepository)).createBrand({ ...input, organizationId: positiveInt('--org', opts.org)!, clientId: positiveInt('--client', opts.client) ?? null });
        print(json(), b, `brand ${b.id} "${b.name}" (${b.domain}) with ${b.competitors.length} competitor(s)`);
      }),
    );

  // Aliases and extra domains of brands and competitors: the analysis counts them as the entity's.
  for (const target of ['brand', 'competitor'] as const) {
    const parent = target === 'brand' ? brand : program.command('competitor').description("a brand's competitors");
    const idOption = target === 'brand' ? '--brand <id>' : '--id <id>';
    for (const what of ['alias', 'domain'] as const) {
      const group = parent.command(what).description(`add or remove ${what === 'alias' ? 'another name' : 'an extra domain'} of a ${target}`);
      for (const op of ['add', 'remove'] as const) {
        group
          .command(op)
          .requiredOption(idOption, `${target} id`)
          .requiredOption(`--${what} <${what}>`, what === 'alias' ? 'the name as answers write it' : 'a domain it owns, e.g. acme.de')
          .action((opts: { brand?: string; id?: string; alias?: string; domain?: string }) =>
            run(async (ctx) => {
              const id = positiveInt(idOption.split(' ')[0], opts.brand ?? opts.id)!;
              const r = await (await ctx.get(TenancyRepository)).editNames(target, id, { op, alias: opts.alias, domain: opts.domain });
              print(json(), r, `${target} ${r.id} "${r.name}": aliases ${r.aliases.join(', ') || '-'}; domains ${[r.domain, ...r.extraDomains].join(', ')}`);
            }),
          );
      }
    }
  }
}

const repeat = (v: string, all: string[]) => [...all, v];

/** A brand and its competitors from a corpus-style entity list (DESIGN §11): the first domain is the main one. */
function entitiesFromFile(file: string): { name: string; domain: string; aliases: string[]; extraDomains: string[]; competitors: { name: string; domain: string; aliases: string[]; extraDomains: string[] }[] } {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new CliUsageError(`--entities-file: cannot read ${file} as JSON (${(error as Error).message})`);
  }
  if (!Array.isArray(value)) throw new CliUsageError('--entities-file must hold a JSON list of entities');
  const entities = value.map((e: unknown, k) => {
    const o = (typeof e === 'object' && e !== null ? e : {}) as Record<string, unknown>;
    const where = `--entities-file entity ${k + 1}`;
    if (o.kind !== 'brand' && o.kind !== 'competitor') throw new CliUsageError(`${where}: kind must be brand or competitor`);
    if (typeof o.name !== 'string' || !o.name.trim()) throw new CliUsageError(`${where}: a name is needed`);
    const list = (field: string) => {
      const v = o[field] ?? [];
      if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw new CliUsageError(`${where}: ${field} must be a list of strings`);
      return v as string[];
    };
    const domains = list('domains');
    if (!domains.length) throw new CliUsageError(`${where}: at least one domain is needed`);
    return { kind: o.kind, name: o.name, aliases: list('aliases'), domain: domains[0], extraDomains: domains.slice(1) };
  });
  const brands = entities.filter((e) => e.kind === 'brand');
  if (brands.length !== 1) throw new CliUsageError(`--entities-file must name exactly one brand (found ${brands.length})`);
  const [b] = brands;
  return { name: b.name, domain: b.domain, aliases: b.aliases, extraDomains: b.extraDomains, competitors: entities.filter((e) => e.kind === 'competitor').map(({ name, domain, aliases, extraDomains }) => ({ name, domain, aliases, extraDomains })) };
}
