import { pino } from 'pino';
import { NestLogger, prettyLogs } from './logging.module';

describe('log format', () => {
  it('is pretty on a terminal with auto, JSON otherwise, and as set when set', () => {
    expect(prettyLogs({ logFormat: 'auto' }, { isTTY: true })).toBe(true);
    expect(prettyLogs({ logFormat: 'auto' }, { isTTY: undefined })).toBe(false);
    expect(prettyLogs({ logFormat: 'json' }, { isTTY: true })).toBe(false);
    expect(prettyLogs({ logFormat: 'pretty' }, { isTTY: false })).toBe(true);
  });
});

describe('NestLogger', () => {
  /** A pino logger writing JSON lines into an array. */
  function capture(level = 'trace') {
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level }, { write: (line: string) => lines.push(JSON.parse(line)) });
    return { lines, nest: new NestLogger(logger) };
  }

  it('writes the message with Nest’s context (its last argument) at the matching pino level', () => {
    const { lines, nest } = capture();
    nest.log('started', 'NestApplication');
    nest.verbose('details', 'Loader');
    nest.warn('careful');
    expect(lines.map((l) => [l.level, l.msg, l.context])).toEqual([
      [30, 'started', 'NestApplication'],
      [10, 'details', 'Loader'],
      [40, 'careful', undefined],
    ]);
  });

  it('logs an Error as err with its stack, and the exception handlers’ (message, stack, context) as one error', () => {
    const { lines, nest } = capture();
    nest.error(new Error('boom'), 'Worker');
    nest.error('request failed', 'Error: request failed\n    at handler (x.ts:1:1)', 'ExceptionsHandler');
    expect(lines[0]).toMatchObject({ level: 50, msg: 'boom', context: 'Worker', err: { message: 'boom' } });
    expect((lines[0].err as { stack: string }).stack).toMatch(/^Error: boom\n/);
    expect(lines[1]).toMatchObject({ level: 50, msg: 'request failed', context: 'ExceptionsHandler', err: { stack: 'Error: request failed\n    at handler (x.ts:1:1)' } });
  });

  it('merges an object message into the line and writes nothing below the level', () => {
    const { lines, nest } = capture('info');
    nest.log({ jobs: 3, msg: 'drained' }, 'Queue');
    nest.debug('hidden', 'Queue');
    expect(lines).toEqual([expect.objectContaining({ level: 30, jobs: 3, msg: 'drained', context: 'Queue' })]);
  });
});
