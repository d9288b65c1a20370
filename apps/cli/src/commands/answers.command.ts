import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import type { Command } from 'commander';
import { Presets, SingleBar } from 'cli-progress';
import { analyzeJsonlStream } from '@libs/answer-analysis';
import { AnswerReanalyzer, JudgeBackfill } from '@libs/analysis';
import { isDayKey } from '@libs/metrics';
import { CliUsageError, toJson, type CliContext } from '../cli-context';
import { positiveInt } from './tenancy.command';

/** A RangeError of a use case (an unknown brand, the judge off) is the caller's mistake: a usage error. */
function usageError(error: unknown): never {
  throw error instanceof RangeError ? new CliUsageError(error.message) : error;
}

/** A progress bar on stderr when it is a terminal and the output is not JSON (else nothing), started on the first update. */
function progressBar(label: string, json: boolean): { update(done: number, total: number): void; stop(): void } {
  const bar = !json && process.stderr.isTTY ? new SingleBar({ format: `${label} [{bar}] {percentage}% {value}/{total} answers | {eta_formatted} left`, stream: process.stderr }, Presets.shades_classic) : null;
  let started = false;
  return {
    update: (done, total) => {
      if (!bar) return;
      if (!started) bar.start(total, 0);
      started = true;
      bar.update(done);
    },
    stop: () => bar?.stop(),
  };
}

/**
 * `answers analyze --input FILE`: one JSON line per answer (id, mentions, order, citations, sentiment), no database needed;
 * `answers reanalyze --brand ID --since DATE`: re-analyses a brand's recorded answers with the current engine.
 */
export function registerAnswers(program: Command, fail: (error: unknown) => void, run: (fn: (ctx: CliContext) => Promise<void>) => Promise<void>, json: () => boolean): void {
  const answers = program.command('answers').description('AI-answer analysis');
  answers
    .command('reanalyze')
    .description("re-analyse a brand's recorded answers since a day with the current engine and names (a progress bar on a terminal)")
    .requiredOption('--brand <id>', 'brand id')
    .requiredOption('--since <date>', 'first UTC day, YYYY-MM-DD')
    .action((opts: { brand: string; since: string }) =>
      run(async (ctx) => {
        if (!isDayKey(opts.since)) throw new CliUsageError('--since must be a calendar date YYYY-MM-DD');
        const brandId = positiveInt('--brand', opts.brand)!;
        const bar = progressBar('reanalyze', json());
        const report = await (await ctx.get(AnswerReanalyzer))
          .reanalyze(brandId, opts.since, bar.update)
          .catch(usageError)
          .finally(bar.stop);
        process.stdout.write(
          (json() ? toJson(report) : `brand ${report.brandId} since ${report.since}: ${report.answers} answers, ${report.reanalysed} re-analysed, ${report.unchanged} unchanged (engine ${report.engineVersion || '-'})`) + '\n',
        );
      }),
    );
  answers
    .command('judge')
    .description("put a brand's recorded answers since a day to the sentiment judge, on the judge provider's queue (workers ask; a progress bar on a terminal)")
    .requiredOption('--brand <id>', 'brand id')
    .requiredOption('--since <date>', 'first UTC day, YYYY-MM-DD')
    .option('--timeout <seconds>', 'stop waiting after this long (the jobs stay queued)', '3600')
    .action((opts: { brand: string; since: string; timeout: string }) =>
      run(async (ctx) => {
        if (!isDayKey(opts.since)) throw new CliUsageError('--since must be a calendar date YYYY-MM-DD');
        const brandId = positiveInt('--brand', opts.brand)!;
        const timeoutS = positiveInt('--timeout', opts.timeout)!;
        const bar = progressBar('judge', json());
        const report = await (await ctx.get(JudgeBackfill))
          .run(brandId, opts.since, { timeoutMs: timeoutS * 1000, onProgress: bar.update })
          .catch(usageError)
          .finally(bar.stop);
        const outcomes = Object.entries(report.outcomes).map(([k, v]) => `${v} ${k}`).join(', ') || 'none finished';
        process.stdout.write(
          (json() ? toJson(report) : `brand ${report.brandId} since ${report.since} (${report.labeller}): ${report.answers} answers, ${outcomes}${report.pending ? `, ${report.pending} still queued` : ''}`) + '\n',
        );
        if (report.pending > 0) process.exitCode = 1;
      }),
    );
  answers
    .command('analyze')
    .description('analyse a JSON-lines file of AI answers (corpus format); prints one JSON object per answer')
    .requiredOption('--input <file>', 'JSON-lines file, one answer per line ("-" for standard input)')
    .action(async (opts: { input: string }) => {
      try {
        let input: NodeJS.ReadableStream = process.stdin;
        if (opts.input !== '-') {
          await access(opts.input).catch(() => {
            throw new CliUsageError(`cannot read ${opts.input}`);
          });
          input = createReadStream(opts.input);
        }
        const summary = await analyzeJsonlStream(input, process.stdout, process.stderr);
        if (summary.errors > 0) process.exitCode = 1;
      } catch (error) {
        fail(error);
      }
    });
}
