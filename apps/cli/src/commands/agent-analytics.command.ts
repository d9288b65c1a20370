import { statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import type { Command } from 'commander';
import { Presets, SingleBar } from 'cli-progress';
import { botCatalogue, BotRangesRefresher, DEFAULT_BATCH, LOG_FORMATS, LogIngestion, VisitRetention, type LogFormat, type LogIngestSummary } from '@libs/agent-analytics';
import { CliUsageError, toJson, type CliContext } from '../cli-context';
import { positiveInt } from './tenancy.command';

type Run = (fn: (ctx: CliContext) => Promise<void>) => Promise<void>;

function summaryText(s: LogIngestSummary): string {
  const lines = [
    `${s.lines} lines in ${s.seconds.toFixed(1)} s (${s.linesPerSecond} lines/s)`,
    `  AI-agent visits stored: ${s.botVisits}`,
    `  AI referrals counted:   ${s.aiReferrals}`,
    `  other visits (skipped): ${s.otherVisits}`,
    `  rejected lines:         ${s.rejected}`,
  ];
  for (const [reason, n] of Object.entries(s.reasons).sort((a, b) => b[1] - a[1])) lines.push(`    ${n} × ${reason}`);
  for (const r of s.rejections.slice(0, 10)) lines.push(`    line ${r.line}: ${r.reason}`);
  return lines.join('\n') + '\n';
}

const HEAP_GROWING_PERCENT = 25;
const READ_BYTES = 1 << 20;

/** A file's bytes, READ_BYTES at a time into one buffer (each read used up before the next is asked for). */
async function* fileReads(file: string): AsyncGenerator<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(READ_BYTES);
    for (;;) {
      const { bytesRead } = await handle.read(buf, 0, READ_BYTES, null);
      if (bytesRead === 0) return;
      yield buf.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}

/** `logs ingest`, `logs retention`, `bots refresh`, `bots list` (agent analytics, DESIGN §13.2). */
export function registerAgentAnalytics(program: Command, run: Run, json: () => boolean): void {
  const logs = program.command('logs').description('AI agents on your sites: CDN and server logs');
  logs
    .command('ingest')
    .description('reads a log (FILE, or - for standard input) and stores the visits of AI agents and AI referrals, with a progress bar and a summary')
    .argument('<file>', 'the log file, or - for standard input')
    .requiredOption('--format <format>', `${LOG_FORMATS.join(' | ')}`)
    .requiredOption('--org <id>', 'the organisation the visits belong to')
    .option('--host <host>', 'the site host, for formats whose lines name none (nginx, apache combined)')
    .option('--batch <n>', `kept visits per transaction (default ${DEFAULT_BATCH}; memory does not grow with it)`)
    .action((file: string, opts: { format: string; org: string; host?: string; batch?: string }) =>
      run(async (ctx) => {
        if (!(LOG_FORMATS as readonly string[]).includes(opts.format)) throw new CliUsageError(`--format must be one of ${LOG_FORMATS.join(', ')}`);
        const org = positiveInt('--org', opts.org)!;
        const batchSize = positiveInt('--batch', opts.batch) ?? DEFAULT_BATCH;
        if (batchSize > 1_000_000) throw new CliUsageError('--batch must be at most 1000000');
        let input: Readable | AsyncIterable<Buffer>;
        let total = 0;
        if (file === '-') input = process.stdin;
        else {
          try {
            total = statSync(file).size;
          } catch {
            throw new CliUsageError(`cannot read ${file}`);
          }
          // 1 MiB reads of bytes into one buffer, asked for one at a time (lines are read from them, only
          // what must become text does): no string of a read in V8's large-object space, and no buffer a
          // read, whose memory outside the heap would call for full collections as it adds up.
          input = fileReads(file);
        }
        // V8 lets the old generation grow to about four times what survived the last full collection
        // before the next one. Ingestion keeps little alive (a transaction's rollup sums), but the start
        // (Nest, the modules) leaves garbage there: a growth of 25 % keeps the peak near the live size for
        // a few more (cheap) full collections.
        setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
        const organizations: unknown[] = await (await ctx.dataSource()).query('SELECT 1 FROM organizations WHERE id = $1', [org]);
        if (!organizations.length) throw new CliUsageError(`no organisation ${org}`);
        const bar =
          !json() && process.stderr.isTTY
            ? total > 0
              ? new SingleBar({ format: 'ingest [{bar}] {percentage}% | {lines} lines | {eta_formatted} left', stream: process.stderr }, Presets.shades_classic)
              : new SingleBar({ format: 'ingest {lines} lines read', stream: process.stderr }, Presets.shades_classic)
            : null;
        bar?.start(total || 1, 0, { lines: 0 });
        try {
          const summary = await (await ctx.get(LogIngestion)).run(input, {
            format: opts.format as LogFormat,
            organizationId: org,
            host: opts.host,
            batchSize,
            onProgress: (bytes, lines) => bar?.update(total ? Math.min(bytes, total) : 0, { lines }),
          });
          bar?.stop();
          process.stdout.write(json() ? toJson({ file, format: opts.format, organizationId: org, ...summary }) + '\n' : summaryText(summary));
        } finally {
          bar?.stop();
        }
      }),
    );
  logs
    .command('retention')
    .description('drops the day partitions of bot visits older than AGENT_RETENTION_DAYS (the worker does it hourly)')
    .action(() =>
      run(async (ctx) => {
        const result = await (await ctx.get(VisitRetention)).dropExpired();
        process.stdout.write(json() ? toJson(result) + '\n' : `kept from ${result.keepFrom}; dropped ${result.droppedPartitions.length} partition(s) ${result.droppedPartitions.join(', ')}\n`);
      }),
    );

  const bots = program.command('bots').description('the catalogue of AI agents');
  bots
    .command('refresh')
    .description("downloads the operators' published IP ranges (AGENT_RANGES_BASE_URL points elsewhere) over the shipped snapshot")
    .action(() =>
      run(async (ctx) => {
        const results = await (await ctx.get(BotRangesRefresher)).refresh();
        if (json()) process.stdout.write(toJson({ results }) + '\n');
        else for (const r of results) process.stdout.write(`${r.botId}: ${r.error ? `failed (${r.error}), kept the previous ranges` : `${r.prefixes} prefixes`} from ${r.url}\n`);
        if (results.length > 0 && results.every((r) => r.error)) process.exitCode = 1;
      }),
    );
  bots
    .command('list')
    .description('the catalogue: operator, product, category, tokens, verification and sources of each agent')
    .action(() =>
      run(async () => {
        const entries = botCatalogue();
        if (json()) process.stdout.write(toJson({ bots: entries }) + '\n');
        else for (const e of entries) process.stdout.write(`${e.name.padEnd(30)} ${e.operator.padEnd(22)} ${e.category.padEnd(15)} ${Object.keys(e.verification).join(',') || '-'}\n`);
      }),
    );
}
