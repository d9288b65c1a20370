import type { Command } from 'commander';
import { ApiError } from '@libs/http';
import { MAX_AUDIT_URLS, pageAuditDto, PageAuditRequests, PageAuditsRepository, urlProblem, type PageAudit } from '@libs/page-audits';
import { BrandAccess, TenancyRepository, type Brand } from '@libs/tenancy';
import { CliUsageError, toJson, type CliContext } from '../cli-context';
import { positiveInt } from './tenancy.command';

type Run = (fn: (ctx: CliContext) => Promise<void>) => Promise<void>;
const repeat = (v: string, all: string[]) => [...all, v];

/** The brand by id (any organisation: the CLI is the operator's), or a usage error. */
async function brandOf(ctx: CliContext, id: string): Promise<Brand> {
  const brandId = positiveInt('--brand', id)!;
  const owner = await (await ctx.get(BrandAccess)).ownerOf(brandId);
  const brand = owner ? await (await ctx.get(TenancyRepository)).findBrand({ organizationId: owner.organizationId, clientId: null }, brandId) : null;
  if (!brand) throw new CliUsageError(`brand ${brandId} does not exist`);
  return brand;
}

function print(json: boolean, value: unknown, human: string): void {
  process.stdout.write((json ? toJson(value) : human) + '\n');
}

const summary = (a: PageAudit) => `page audit ${a.id} of brand ${a.brandId}: ${a.status}, ${a.pagesDone}/${a.pagesTotal || a.requestedUrls.length} pages done, ${a.pagesFailed} failed${a.reason ? ` (${a.reason})` : ''}`;

/** `page-audit run|show|pages` (DESIGN §13.5): the same audits as POST /api/v1/brands/{id}/page-audits, run by the worker. */
export function registerPageAudits(program: Command, run: Run, json: () => boolean): void {
  const audit = program.command('page-audit').description("GEO audits of a brand's pages");
  audit
    .command('run')
    .requiredOption('--brand <id>', 'brand id')
    .option('--url <url>', 'a page to audit (repeatable, at most 1,000)', repeat, [] as string[])
    .option('--urls-file <file>', 'a file with one page URL a line')
    .option('--sitemap [url]', "audit the pages a sitemap lists (default: the brand's https://<domain>/sitemap.xml)")
    .option('--wait', 'wait until the worker has audited every page, then print the outcome of each')
    .action((opts: { brand: string; url: string[]; urlsFile?: string; sitemap?: string | true; wait?: boolean }) =>
      run(async (ctx) => {
        const urls = [...opts.url];
        if (opts.urlsFile) {
          const { readFileSync } = await import('node:fs');
          urls.push(...readFileSync(opts.urlsFile, 'utf8').split('\n').map((l) => l.trim()).filter(Boolean));
        }
        if (urls.length && opts.sitemap !== undefined) throw new CliUsageError('give --url/--urls-file or --sitemap, not both');
        if (!urls.length && opts.sitemap === undefined) throw new CliUsageError('give --url/--urls-file (pages) or --sitemap [url]');
        if (urls.length > MAX_AUDIT_URLS) throw new CliUsageError(`at most ${MAX_AUDIT_URLS} URLs (${urls.length} given)`);
        for (const u of urls) {
          const problem = urlProblem(u);
          if (problem) throw new CliUsageError(`${u}: the URL ${problem}`);
        }
        if (typeof opts.sitemap === 'string' && urlProblem(opts.sitemap)) throw new CliUsageError(`--sitemap: the URL ${urlProblem(opts.sitemap)}`);
        const brand = await brandOf(ctx, opts.brand);
        let started = await (await ctx.get(PageAuditRequests)).start(brand, urls.length ? { urls } : { sitemap: opts.sitemap ?? true }, 'cli').catch((error: unknown) => {
          // A URL off the brand's domains is the operator's input: a usage error naming each.
          if (error instanceof ApiError && error.getStatus() === 400) {
            const fields = (error.details?.fields as { message: string }[] | undefined) ?? [];
            throw new CliUsageError(fields.length ? fields.map((f) => f.message).join('; ') : error.message);
          }
          throw error;
        });
        const audits = await ctx.get(PageAuditsRepository);
        if (opts.wait) {
          while (started.status === 'queued' || started.status === 'running') {
            await new Promise((r) => setTimeout(r, 500));
            started = (await audits.audit(started.id))!;
          }
          const pages = (await audits.results(started.id)).map((r) => ({ url: r.url, status: r.status, score: r.score, reason: r.reason }));
          return print(json(), { ...pageAuditDto(started), pages }, [summary(started), ...pages.map((p) => `${p.status}\t${p.score ?? '-'}\t${p.url}${p.reason ? `\t${p.reason}` : ''}`)].join('\n'));
        }
        print(json(), pageAuditDto(started), `${summary(started)} (queued: the worker audits it; see page-audit show --brand ${brand.id} --id ${started.id})`);
      }),
    );
  audit
    .command('show')
    .requiredOption('--brand <id>', 'brand id')
    .requiredOption('--id <auditId>', 'audit id')
    .action((opts: { brand: string; id: string }) =>
      run(async (ctx) => {
        const brand = await brandOf(ctx, opts.brand);
        const audits = await ctx.get(PageAuditsRepository);
        const found = await audits.auditOfBrand(brand.id, positiveInt('--id', opts.id)!);
        if (!found) throw new CliUsageError(`brand ${brand.id} has no page audit ${opts.id}`);
        const pages = (await audits.results(found.id)).map((r) => ({ url: r.url, status: r.status, score: r.score, reason: r.reason }));
        print(json(), { ...pageAuditDto(found), pages }, [summary(found), ...pages.map((p) => `${p.status}\t${p.score ?? '-'}\t${p.url}${p.reason ? `\t${p.reason}` : ''}`)].join('\n'));
      }),
    );
  audit
    .command('pages')
    .requiredOption('--brand <id>', 'brand id')
    .option('--limit <n>', 'pages shown (default 50, at most 1,000)', '50')
    .action((opts: { brand: string; limit: string }) =>
      run(async (ctx) => {
        const brand = await brandOf(ctx, opts.brand);
        const limit = positiveInt('--limit', opts.limit)!;
        if (limit > 1000) throw new CliUsageError('--limit must be at most 1000');
        const { rows, total } = await (await ctx.get(PageAuditsRepository)).pages(brand.id, { limit, offset: 0, sortColumn: 'score', order: 'desc' });
        const pages = rows.map((r) => ({ url: r.url, score: r.score, auditedAt: r.fetchedAt, top: r.recommendations?.[0]?.title ?? null }));
        print(json(), { total, pages }, pages.length ? pages.map((p) => `${p.score}\t${p.url}\t${p.top ?? ''}`).join('\n') : `brand ${brand.id} has no audited page`);
      }),
    );
}
