import { readFileSync, statSync } from 'node:fs';
import type { Command } from 'commander';
import { ApiError } from '@libs/http';
import { ChannelsRepository, IMPORT_FORMATS, MAX_IMPORT_BYTES, MetricsImporter, type ImportFormat } from '@libs/channels';
import { CliUsageError, toJson, type CliContext } from '../cli-context';
import { positiveInt } from './tenancy.command';

type Run = (fn: (ctx: CliContext) => Promise<void>) => Promise<void>;

/** An ApiError of the importer (a bad row, a wrong header) as a usage error naming the rows. */
function usage(error: unknown): unknown {
  if (!(error instanceof ApiError)) return error;
  const fields = (error.details?.fields as { message: string }[] | undefined) ?? [];
  return new CliUsageError([error.message, ...fields.map((f) => `  ${f.message}`)].join('\n'));
}

/** `metrics import` (DESIGN §13.3: a file of daily rows into an import channel) and `channels list`. */
export function registerChannels(program: Command, run: Run, json: () => boolean): void {
  program
    .command('metrics')
    .description('channel metrics')
    .command('import')
    .description('import a CSV or NDJSON file of daily metric rows into an import channel (all or nothing)')
    .requiredOption('--channel <id>', 'the import channel')
    .option('--format <format>', 'csv | ndjson (default: from the file name, else csv)')
    .option('--idempotency-key <key>', 'the same file sent again with this key changes nothing')
    .argument('<file>', 'the file')
    .action((file: string, opts: { channel: string; format?: string; idempotencyKey?: string }) =>
      run(async (ctx) => {
        const format = (opts.format ?? (/\.(ndjson|jsonl)$/i.test(file) ? 'ndjson' : 'csv')) as ImportFormat;
        if (!IMPORT_FORMATS.includes(format)) throw new CliUsageError(`--format must be ${IMPORT_FORMATS.join(' or ')}`);
        if (statSync(file).size > MAX_IMPORT_BYTES) throw new CliUsageError(`${file} is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB`);
        const id = positiveInt('--channel', opts.channel)!;
        const channel = await (await ctx.get(ChannelsRepository)).forSync(id);
        if (!channel) throw new CliUsageError(`channel ${id} does not exist`);
        const result = await (await ctx.get(MetricsImporter)).import(channel, format, readFileSync(file), opts.idempotencyKey ?? null).catch((e: unknown) => {
          throw usage(e);
        });
        process.stdout.write((json() ? toJson(result) : `${result.replayed ? 'already imported' : 'imported'}: ${result.rows} rows, ${result.startDate ?? '-'} to ${result.endDate ?? '-'} (sync ${result.syncId})`) + '\n');
      }),
    );

  program
    .command('channels')
    .description('channels of a client')
    .command('list')
    .requiredOption('--org <id>', 'organisation id')
    .requiredOption('--client <id>', 'client id')
    .action((opts: { org: string; client: string }) =>
      run(async (ctx) => {
        const list = await (await ctx.get(ChannelsRepository)).list({ organizationId: positiveInt('--org', opts.org)!, clientId: null }, positiveInt('--client', opts.client)!);
        process.stdout.write((json() ? toJson(list) : list.map((c) => `${c.id}\t${c.kind}\t${c.name}\tcursor ${c.cursorDate ?? '-'}\t${c.lastSyncStatus ?? 'never synced'}`).join('\n')) + '\n');
      }),
    );
}
