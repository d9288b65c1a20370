import { readFileSync, statSync } from 'node:fs';
import type { Command } from 'commander';
import { ApiError, createValidationPipe } from '@libs/http';
import { ChannelCreator, ChannelSyncer, ChannelsRepository, CLI_IMPORT_CREDENTIAL, CreateChannelRequest, IMPORT_FORMATS, MAX_IMPORT_BYTES, MetricsImporter, type ImportFormat } from '@libs/channels';
import { CliUsageError, toJson, type CliContext } from '../cli-context';
import { positiveInt } from './tenancy.command';

type Run = (fn: (ctx: CliContext) => Promise<void>) => Promise<void>;

/** An ApiError of the importer (a bad row, a wrong header) as a usage error naming the rows. */
function usage(error: unknown): unknown {
  if (!(error instanceof ApiError)) return error;
  const fields = (error.details?.fields as { message: string }[] | undefined) ?? [];
  return new CliUsageError([error.message, ...fields.map((f) => `  ${f.message}`)].join('\n'));
}

/** `metrics import` (DESIGN §13.3: a file of daily rows into an import channel) and `channels list|create|sync|delete`. */
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
        const result = await (await ctx.get(MetricsImporter)).import(channel, format, readFileSync(file), opts.idempotencyKey === undefined ? null : { key: opts.idempotencyKey, credential: CLI_IMPORT_CREDENTIAL }).catch((e: unknown) => {
          throw usage(e);
        });
        process.stdout.write((json() ? toJson(result) : `${result.replayed ? 'already imported' : 'imported'}: ${result.rows} rows, ${result.startDate ?? '-'} to ${result.endDate ?? '-'} (sync ${result.syncId})`) + '\n');
      }),
    );

  const channels = program.command('channels').description('channels of a client (DESIGN §13.3)');

  channels
    .command('create')
    .description('connect a channel: ga4 (--property-id, --credentials-file), search_console (--site-url, --credentials-file) or import')
    .requiredOption('--org <id>', 'organisation id')
    .requiredOption('--client <id>', 'client id')
    .requiredOption('--kind <kind>', 'ga4 | search_console | import')
    .requiredOption('--name <name>', 'a name')
    .option('--brand <id>', "the client's brand rows belong to when they name none")
    .option('--property-id <id>', 'GA4 property id')
    .option('--site-url <url>', 'Search Console property: https://host/ or sc-domain:host')
    .option('--credentials-file <file>', 'the service-account key file (JSON); stored encrypted, never printed')
    .option('--backfill-days <n>', 'days fetched on the first sync (default 30)')
    .action((opts: { org: string; client: string; kind: string; name: string; brand?: string; propertyId?: string; siteUrl?: string; credentialsFile?: string; backfillDays?: string }) =>
      run(async (ctx) => {
        let credentials: unknown;
        if (opts.credentialsFile !== undefined) {
          try {
            credentials = JSON.parse(readFileSync(opts.credentialsFile, 'utf8'));
          } catch {
            throw new CliUsageError(`${opts.credentialsFile} is not a JSON key file`);
          }
        }
        const plain = {
          clientId: positiveInt('--client', opts.client),
          kind: opts.kind,
          name: opts.name,
          ...(opts.brand !== undefined && { brandId: positiveInt('--brand', opts.brand) }),
          ...(opts.propertyId !== undefined && { propertyId: opts.propertyId }),
          ...(opts.siteUrl !== undefined && { siteUrl: opts.siteUrl }),
          ...(credentials !== undefined && { credentials }),
          ...(opts.backfillDays !== undefined && { backfillDays: positiveInt('--backfill-days', opts.backfillDays) }),
        };
        const channel = await (async () => {
          const body = (await createValidationPipe().transform(plain, { type: 'body', metatype: CreateChannelRequest })) as CreateChannelRequest;
          return (await ctx.get(ChannelCreator)).create({ organizationId: positiveInt('--org', opts.org)!, clientId: null }, body);
        })().catch((e: unknown) => {
          throw usage(e);
        });
        process.stdout.write((json() ? toJson(channel) : `channel ${channel.id} (${channel.kind}) created`) + '\n');
      }),
    );

  channels
    .command('sync')
    .description("sync a channel now, in this process, from its cursor (a backfill on the first sync) up to yesterday; prints the sync's record")
    .requiredOption('--id <id>', 'channel id')
    .action((opts: { id: string }) =>
      run(async (ctx) => {
        const id = positiveInt('--id', opts.id)!;
        const repo = await ctx.get(ChannelsRepository);
        const channel = await repo.forSync(id);
        if (!channel) throw new CliUsageError(`channel ${id} does not exist`);
        if (channel.kind === 'import') throw new CliUsageError(`channel ${id} is an import channel: use metrics import`);
        const sync = await repo.queueSync(channel.organizationId, id, 'manual');
        const outcome = await (await ctx.get(ChannelSyncer)).run(sync.id, id);
        process.stdout.write((json() ? toJson({ syncId: sync.id, ...outcome }) : `sync ${sync.id}: ${outcome.status}, ${outcome.rows} rows${outcome.error ? `: ${outcome.error}` : ''}`) + '\n');
        if (outcome.status === 'failed') process.exitCode = 1;
      }),
    );

  channels
    .command('delete')
    .description('disconnect a channel: its credentials, syncs and rows are deleted')
    .requiredOption('--org <id>', 'organisation id')
    .requiredOption('--id <id>', 'channel id')
    .action((opts: { org: string; id: string }) =>
      run(async (ctx) => {
        const id = positiveInt('--id', opts.id)!;
        const deleted = await (await ctx.get(ChannelsRepository)).delete({ organizationId: positiveInt('--org', opts.org)!, clientId: null }, id);
        if (!deleted) throw new CliUsageError(`channel ${id} of organisation ${opts.org} does not exist`);
        process.stdout.write((json() ? toJson({ id, deleted: true }) : `channel ${id} deleted`) + '\n');
      }),
    );

  channels
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
