import type { Command } from 'commander';
import { formatPosition, parsePosition, START, type RecordedEvent } from '@libs/event-store';
import { CliContext, CliUsageError, toJson } from '../cli-context';

export function eventLine(e: RecordedEvent): string {
  return toJson({
    globalPosition: e.globalPosition,
    position: formatPosition(e.position),
    streamId: e.streamId,
    streamPosition: e.streamPosition,
    eventId: e.eventId,
    type: e.type,
    schemaVersion: e.metadata.schemaVersion,
    data: e.data,
    metadata: e.metadata,
    recordedAt: e.recordedAt.toISOString(),
  });
}

export function registerEventsTail(program: Command, run: (fn: (ctx: CliContext) => Promise<void>) => Promise<void>): void {
  program
    .command('events')
    .description('read the event store')
    .command('tail')
    .description('print events, one JSON object per line: a stream (--stream) or the global feed (--from)')
    .option('--stream <id>', 'only this stream, e.g. opportunity-42')
    .option('--from <position>', 'global feed: start after this position ("commit/prepare" as printed, or 0)')
    .option('--last <n>', 'only the last n events')
    .option('--follow', 'keep printing new events as they are appended (Ctrl-C to stop)')
    .action((opts: { stream?: string; from?: string; last?: string; follow?: boolean }) =>
      run(async (ctx) => {
        const last = opts.last === undefined ? undefined : Number(opts.last);
        if (last !== undefined && (!Number.isInteger(last) || last < 1)) throw new CliUsageError('--last takes a positive integer');
        let after = START;
        if (opts.from !== undefined) {
          try {
            after = opts.from === '0' ? START : parsePosition(opts.from);
          } catch (e) {
            throw new CliUsageError((e as Error).message);
          }
        }
        const store = await ctx.eventStore();
        const out = (e: RecordedEvent) => process.stdout.write(eventLine(e) + '\n');
        if (opts.stream) {
          let events = await store.readStream(opts.stream);
          if (last !== undefined) events = events.slice(-last);
          events.forEach(out);
          if (!opts.follow) return;
          let revision = events.length ? events[events.length - 1].streamPosition + 1n : 0n;
          for (;;) {
            await new Promise((r) => setTimeout(r, 500));
            const more = await store.readStream(opts.stream, { fromRevision: revision });
            more.forEach(out);
            if (more.length) revision = more[more.length - 1].streamPosition + 1n;
          }
        }
        const ring: RecordedEvent[] = [];
        for (;;) {
          const page = await store.readAll({ after, limit: 1000 });
          for (const e of page.events) {
            if (last === undefined) out(e);
            else {
              ring.push(e);
              if (ring.length > last) ring.shift();
            }
          }
          after = page.next;
          if (page.endOfFeed) break;
        }
        ring.forEach(out);
        if (!opts.follow) return;
        const sub = store.subscribeToAll({
          after,
          onBatch: async (events) => events.forEach(out),
        });
        await sub.done;
      }),
    );
}
