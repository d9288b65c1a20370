import { Writable } from 'node:stream';
import { pino } from 'pino';
import { until } from '../../../test/support/until';
import { createRootLogger, NestLogger, prettyLogs, redactUrlCredentials } from './logging.module';

describe('log format', () => {
  it('is pretty on a terminal with auto, JSON otherwise, and as set when set', () => {
    expect(prettyLogs({ logFormat: 'auto' }, { isTTY: true })).toBe(true);
    expect(prettyLogs({ logFormat: 'auto' }, { isTTY: undefined })).toBe(false);
    expect(prettyLogs({ logFormat: 'json' }, { isTTY: true })).toBe(false);
    expect(prettyLogs({ logFormat: 'pretty' }, { isTTY: false })).toBe(true);
  });
});

describe('credentials in URLs', () => {
  it.each([
    ['/api/v1/brands?api_key=ak_live_abc123', '/api/v1/brands?api_key=[REDACTED]'],
    ['/cb?code=SplxlOBeZQQYbYS6WxSbIA&state=xyz', '/cb?code=[REDACTED]&state=xyz'],
    ['/x?a=1&token=t0k&access_token=a.b.c&key=k&b=2', '/x?a=1&token=[REDACTED]&access_token=[REDACTED]&key=[REDACTED]&b=2'],
    ['/x?API_KEY=Upper&Api%5Fkey=encoded', '/x?API_KEY=[REDACTED]&Api%5Fkey=[REDACTED]'],
    ['/docs/oauth2-redirect.html#access_token=abc&token_type=bearer', '/docs/oauth2-redirect.html#access_token=[REDACTED]&token_type=bearer'],
    ['unhandled error on GET /api/v1/x?refresh_token=r1 (after 3 ms)', 'unhandled error on GET /api/v1/x?refresh_token=[REDACTED] (after 3 ms)'],
    ['https://hooks.example.com/in?client_secret=s3&keyword=seo&monkey=1', 'https://hooks.example.com/in?client_secret=[REDACTED]&keyword=seo&monkey=1'],
  ])('%s', (text, expected) => {
    expect(redactUrlCredentials(text)).toBe(expected);
  });

  it('leaves what is not a URL parameter, and empty values, alone', () => {
    for (const text of ['exit code=1', 'key=value in a sentence', '/x?code=&token=', '{"statusCode":401}', '/api/v1/brands?clientId=3']) expect(redactUrlCredentials(text)).toBe(text);
  });

  const lines = (format: 'json' | 'pretty') => {
    let out = '';
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        out += chunk.toString();
        done();
      },
    });
    return { logger: createRootLogger({ logLevel: 'info', logFormat: format }, destination), out: () => out };
  };

  it.each(['json', 'pretty'] as const)('never reach a %s log line, in any field, message or stack', async (format) => {
    const { logger, out } = lines(format);
    const error = new Error('GET https://api.example.com/v1?api_key=SECRET1 failed');
    logger.warn({ req: { method: 'GET', url: '/api/v1/brands?api_key=SECRET2' }, nested: { at: ['/cb?code=SECRET3'] } }, 'request completed');
    logger.error({ err: error }, 'fetch of /x?token=SECRET4 failed');
    await until(() => out().includes('SECRET4') || out().includes('token=[REDACTED]'), 5000, 'the lines written');
    const text = out();
    for (const secret of ['SECRET1', 'SECRET2', 'SECRET3', 'SECRET4']) expect(text).not.toContain(secret);
    expect(text).toContain('api_key=[REDACTED]');
    expect(text).toContain('code=[REDACTED]');
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
