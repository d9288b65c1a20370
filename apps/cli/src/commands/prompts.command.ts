import type { Command } from 'commander';
import { isProvider, isSchedule, normaliseTags, PROVIDERS, queryProblem, SCHEDULES, tagsProblem, TrackedPromptsRepository, type BrandRef, type PromptWrite, type Provider, type TrackedPrompt } from '@libs/analysis';
import { countryProblem, languageProblem, normaliseCountry, normaliseLanguage } from '@libs/http';
import { BrandAccess } from '@libs/tenancy';
import { CliUsageError, toJson, type CliContext } from '../cli-context';
import { positiveInt } from './tenancy.command';

type Run = (fn: (ctx: CliContext) => Promise<void>) => Promise<void>;
const repeat = (v: string, all: string[]) => [...all, v];

/** The brand by id (any organisation: the CLI is the operator's), or a usage error. */
async function brandOf(ctx: CliContext, id: string): Promise<BrandRef> {
  const brandId = positiveInt('--brand', id)!;
  const owner = await (await ctx.get(BrandAccess)).ownerOf(brandId);
  if (!owner) throw new CliUsageError(`brand ${brandId} does not exist`);
  return { id: brandId, organizationId: owner.organizationId };
}

function providersOption(values: string[]): Provider[] | undefined {
  if (!values.length) return undefined;
  const unknown = values.filter((p) => !isProvider(p));
  if (unknown.length) throw new CliUsageError(`unknown provider(s): ${unknown.join(', ')}; known: ${PROVIDERS.join(', ')}`);
  return [...new Set(values)] as Provider[];
}

function stored(result: PromptWrite): TrackedPrompt {
  if ('prompt' in result) return result.prompt;
  if (result.conflict === 'duplicate') throw new CliUsageError(`the brand already tracks this query (prompt ${result.promptId})`);
  throw new CliUsageError(`the brand has ${result.limit} active prompts, the most it may have; deactivate or remove one first`);
}

function print(json: boolean, value: unknown, human: string): void {
  process.stdout.write((json ? toJson(value) : human) + '\n');
}

const line = (p: TrackedPrompt) => `${p.id}\t${p.isActive ? 'active' : 'inactive'}\t${p.providers.join(',')}\t${p.query}`;

/** `prompt add|list|remove` and `brand schedule` (DESIGN §13.1). */
export function registerPrompts(program: Command, run: Run, json: () => boolean): void {
  const prompt = program.command('prompt').description("a brand's tracked prompts");
  prompt
    .command('add')
    .requiredOption('--brand <id>', 'brand id')
    .requiredOption('--query <text>', 'the question, 1 to 1,000 characters')
    .option('--topic <topic>', 'a grouping label')
    .option('--tag <tag>', 'a tag (repeatable)', repeat, [] as string[])
    .option('--provider <name>', `a provider to ask (repeatable; default all: ${PROVIDERS.join(', ')})`, repeat, [] as string[])
    .option('--inactive', 'keep it without asking it')
    .option('--country <code>', 'the country to ask for (ISO 3166-1 alpha-2, e.g. DE)')
    .option('--language <tag>', 'the language to ask in (BCP 47, e.g. de or pt-BR)')
    .action((opts: { brand: string; query: string; topic?: string; tag: string[]; provider: string[]; inactive?: boolean; country?: string; language?: string }) =>
      run(async (ctx) => {
        const problem =
          queryProblem(opts.query) ??
          tagsProblem(opts.tag) ??
          (opts.country === undefined ? null : countryProblem(opts.country)) ??
          (opts.language === undefined ? null : languageProblem(opts.language));
        if (problem) throw new CliUsageError(problem);
        if (opts.topic !== undefined && (opts.topic.trim().length === 0 || opts.topic.length > 200)) throw new CliUsageError('--topic must be 1 to 200 characters');
        const brand = await brandOf(ctx, opts.brand);
        const p = stored(
          await (await ctx.get(TrackedPromptsRepository)).add(brand, {
            query: opts.query,
            topic: opts.topic ?? null,
            tags: normaliseTags(opts.tag),
            providers: providersOption(opts.provider) ?? [...PROVIDERS],
            country: opts.country === undefined ? null : normaliseCountry(opts.country),
            language: opts.language === undefined ? null : normaliseLanguage(opts.language),
            isActive: !opts.inactive,
          }),
        );
        print(json(), p, `prompt ${p.id} for brand ${p.brandId}: ${p.query}`);
      }),
    );
  prompt
    .command('list')
    .requiredOption('--brand <id>', 'brand id')
    .option('--active', 'only active prompts')
    .action((opts: { brand: string; active?: boolean }) =>
      run(async (ctx) => {
        const brand = await brandOf(ctx, opts.brand);
        const { rows } = await (await ctx.get(TrackedPromptsRepository)).list(brand, { active: opts.active ? true : undefined, limit: 1_000_000, offset: 0, sortColumn: 'id', order: 'asc' });
        print(json(), rows, rows.length ? rows.map(line).join('\n') : `brand ${brand.id} tracks no prompts`);
      }),
    );
  prompt
    .command('remove')
    .requiredOption('--brand <id>', 'brand id')
    .requiredOption('--id <promptId>', 'prompt id')
    .action((opts: { brand: string; id: string }) =>
      run(async (ctx) => {
        const brand = await brandOf(ctx, opts.brand);
        const id = positiveInt('--id', opts.id)!;
        if (!(await (await ctx.get(TrackedPromptsRepository)).remove(brand, id))) throw new CliUsageError(`brand ${brand.id} has no prompt ${id}`);
        print(json(), { id, deleted: true }, `prompt ${id} removed`);
      }),
    );

  const brand = program.commands.find((c) => c.name() === 'brand') ?? program.command('brand').description('brands and their competitors');
  brand
    .command('schedule')
    .description(`show or set how often the brand's active prompts are asked (${SCHEDULES.join(' | ')}; default daily)`)
    .requiredOption('--brand <id>', 'brand id')
    .option('--every <schedule>', SCHEDULES.join(' | '))
    .action((opts: { brand: string; every?: string }) =>
      run(async (ctx) => {
        if (opts.every !== undefined && !isSchedule(opts.every)) throw new CliUsageError(`--every must be ${SCHEDULES.join(', ')}`);
        const b = await brandOf(ctx, opts.brand);
        const prompts = await ctx.get(TrackedPromptsRepository);
        const s = opts.every === undefined ? await prompts.schedule(b) : await prompts.setSchedule(b, opts.every);
        print(json(), { brandId: b.id, ...s }, `brand ${b.id}: ${s.schedule}${s.lastRunAt ? ` (last run ${s.lastRunAt})` : ''}`);
      }),
    );
}
