import type { Command } from 'commander';
import { SingleBar, Presets } from 'cli-progress';
import { PROJECTION_CONFIG, ProjectionRebuilder, projectionStatus, shardOwnership } from '@libs/projection-engine';
import { sectionOf } from '@libs/config';
import { formatPosition } from '@libs/event-store';
import { ALL_PROJECTORS, answerRollupsProjector, BrandRollupRebuilds } from '@projections';
import { CliContext, CliUsageError, toJson } from '../cli-context';

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  for (const r of [header, ...rows]) process.stdout.write(r.map((c, i) => c.padEnd(widths[i])).join('  ') + '\n');
}

export function registerProjections(program: Command, run: (fn: (ctx: CliContext) => Promise<void>) => Promise<void>, json: () => boolean): void {
  const projections = program.command('projections').description('read models built from the event feed');

  projections
    .command('status')
    .description("each projection's checkpoint position, lag (events behind) and owner")
    .action(() =>
      run(async (ctx) => {
        const status = await projectionStatus(await ctx.dataSource(), await ctx.eventStore(), ALL_PROJECTORS, sectionOf(ctx.config, PROJECTION_CONFIG).shards);
        if (json()) {
          process.stdout.write(toJson(status) + '\n');
          return;
        }
        const rows = status.map((s) => [s.name, s.position, String(s.eventsApplied), s.lag === null ? '?' : String(s.lag), s.owner ?? '-', s.updatedAt ?? '-']);
        printTable(['projection', 'position', 'applied', 'lag', 'owner', 'updated'], rows);
      }),
    );

  projections
    .command('shards')
    .description('each (projector group, shard) unit: the worker holding it, since when, and whether its lock is held now')
    .action(() =>
      run(async (ctx) => {
        const units = await shardOwnership(await ctx.dataSource());
        if (json()) {
          process.stdout.write(toJson(units) + '\n');
          return;
        }
        const rows = units.map((u) => [u.group, `${u.shard}/${u.shardCount}`, u.owner ?? '-', u.since ?? '-', u.live ? 'yes' : 'no']);
        printTable(['group', 'shard', 'owner', 'since', 'live'], rows);
      }),
    );

  projections
    .command('rebuild')
    .argument('<name>', 'projection name (see projections status)')
    .description('replay a projection from position zero into fresh tables, then swap them in (the API keeps serving); answer_rollups --per-brand: queue one rebuild per brand instead')
    .option('--per-brand', 'answer_rollups only: queue one {rollup-rebuilds} job per brand (the workers recompute each brand\'s rows in place)')
    .option('--brand <ids...>', 'with --per-brand: only these brands')
    .action((name: string, options: { perBrand?: boolean; brand?: string[] }) =>
      run(async (ctx) => {
        const projector = ALL_PROJECTORS.find((p) => p.name === name);
        if (!projector) throw new CliUsageError(`unknown projection "${name}"; known: ${ALL_PROJECTORS.map((p) => p.name).join(', ')}`);
        if (options.brand && !options.perBrand) throw new CliUsageError('--brand goes with --per-brand');
        if (options.perBrand) {
          if (projector !== answerRollupsProjector) throw new CliUsageError(`--per-brand rebuilds ${answerRollupsProjector.name} only`);
          const ids = options.brand?.map((b) => {
            if (!/^\d+$/.test(b)) throw new CliUsageError(`--brand: "${b}" is not a brand id`);
            return b;
          });
          const brands: { id: string; organization_id: string }[] = await (await ctx.dataSource()).query(
            `SELECT id, organization_id FROM brands WHERE $1::bigint[] IS NULL OR id = ANY($1::bigint[]) ORDER BY id`,
            [ids ?? null],
          );
          if (ids && brands.length !== new Set(ids).size) throw new CliUsageError(`unknown brand among ${ids.join(', ')}`);
          // The feed's head names the request: the same command at the same head queues nothing twice.
          const requestId = formatPosition(await (await ctx.eventStore()).headPosition()).replace(/[^0-9A-Za-z]+/g, '-');
          const jobIds = await (await ctx.get(BrandRollupRebuilds)).enqueue(brands.map((b) => ({ organizationId: Number(b.organization_id), brandId: Number(b.id), requestId })));
          if (json()) process.stdout.write(toJson({ projector: name, queued: jobIds.length, jobIds }) + '\n');
          else process.stdout.write(`queued ${jobIds.length} brand rebuilds of ${name} on {rollup-rebuilds} (request ${requestId})\n`);
          return;
        }
        const bar = !json() && process.stderr.isTTY ? new SingleBar({ format: `${name} [{bar}] {percentage}% {value}/{total} events | {eta_formatted} left`, stream: process.stderr }, Presets.shades_classic) : null;
        let started = false;
        const result = await (await ctx.get(ProjectionRebuilder)).rebuild(projector, (p) => {
          if (!bar) return;
          if (!started) {
            bar.start(p.total, 0);
            started = true;
          }
          bar.setTotal(p.total);
          bar.update(p.applied);
        });
        bar?.stop();
        const summary = { ...result, position: formatPosition(result.position) };
        if (json()) process.stdout.write(toJson(summary) + '\n');
        else process.stdout.write(`rebuilt ${name}: ${result.eventsRead} events in ${result.durationMs} ms (${result.eventsPerSecond}/s), now at ${summary.position}\n`);
      }),
    );
}
