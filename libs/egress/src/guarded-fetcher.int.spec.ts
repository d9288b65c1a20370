import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { AddressAllowance, isAllowedAddress } from './address-guard';
import { GuardedFetcher } from './guarded-fetcher';

/**
 * The fetcher against real sockets on this machine: a site on 127.0.0.1 (let through by the
 * allowance) and a "private" server on 127.0.0.2 that the allowance does not cover, which must
 * never see a connection.
 */
function serve(host: string, handler: http.RequestListener): Promise<{ server: http.Server; origin: string; connections: () => number }> {
  return new Promise((resolve) => {
    let connections = 0;
    const server = http.createServer(handler);
    server.on('connection', () => connections++);
    server.listen(0, host, () => resolve({ server, origin: `http://${host}:${(server.address() as AddressInfo).port}`, connections: () => connections }));
  });
}

describe('GuardedFetcher', () => {
  let site: Awaited<ReturnType<typeof serve>>;
  let hidden: Awaited<ReturnType<typeof serve>>;
  const seen: http.IncomingHttpHeaders[] = [];
  const allow = AddressAllowance.parse('127.0.0.1');
  let fetcher: GuardedFetcher;

  beforeAll(async () => {
    hidden = await serve('127.0.0.2', (_req, res) => res.end('secret'));
    site = await serve('127.0.0.1', (req, res) => {
      seen.push(req.headers);
      if (req.url === '/hop') return res.writeHead(302, { location: '/page' }).end();
      if (req.url === '/private') return res.writeHead(302, { location: `${hidden.origin}/secret` }).end();
      if (req.url === '/metadata') return res.writeHead(301, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      if (req.url === '/file') return res.writeHead(302, { location: 'file:///etc/passwd' }).end();
      if (req.url === '/loop') return res.writeHead(302, { location: '/loop' }).end();
      if (req.url === '/big') return res.writeHead(200, { 'content-length': String(2_000_000) }).end(Buffer.alloc(2_000_000));
      if (req.url === '/chunked-big') {
        res.writeHead(200);
        for (let i = 0; i < 20; i++) res.write(Buffer.alloc(100_000));
        return res.end();
      }
      if (req.url === '/bomb') return res.writeHead(200, { 'content-encoding': 'gzip' }).end(zlib.gzipSync(Buffer.alloc(5_000_000)));
      if (req.url === '/gzip') return res.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'text/html' }).end(zlib.gzipSync('<p>hello</p>'));
      if (req.url === '/slow') return void setTimeout(() => res.end('late'), 2000).unref();
      if (req.url === '/page' && req.headers['if-none-match'] === '"v1"') return res.writeHead(304, { etag: '"v1"' }).end();
      res.writeHead(200, { etag: '"v1"', 'content-type': 'text/html' }).end('<p>page</p>');
    });
    fetcher = new GuardedFetcher({ userAgent: 'TestAgent/1.0 (+service)', allow });
  });
  afterAll(async () => {
    fetcher.close();
    site.server.closeAllConnections();
    await new Promise((r) => site.server.close(r));
    await new Promise((r) => hidden.server.close(r));
  });

  const get = (path: string, extra: Partial<Parameters<GuardedFetcher['get']>[0]> = {}) => fetcher.get({ url: `${site.origin}${path}`, maxBytes: 1_000_000, timeoutMs: 1000, ...extra });

  it('follows redirects within the guard, names itself, and sends conditional headers to the URL asked for only', async () => {
    const r = await get('/hop', { headers: { 'if-none-match': '"v1"' } });
    expect(r).toMatchObject({ ok: true, status: 200, url: `${site.origin}/page`, redirects: [`${site.origin}/page`] });
    expect(seen.at(-1)!['user-agent']).toBe('TestAgent/1.0 (+service)');
    expect(seen.at(-1)!['if-none-match']).toBeUndefined();
    expect(await get('/page', { headers: { 'if-none-match': '"v1"' } })).toMatchObject({ ok: true, status: 304 });
  });

  it('refuses redirects to addresses the allowance does not cover, and other schemes, without connecting', async () => {
    expect(await get('/private')).toMatchObject({ ok: false, kind: 'blocked', reason: expect.stringMatching(/127\.0\.0\.2/) });
    expect(await get('/metadata')).toMatchObject({ ok: false, kind: 'blocked', reason: expect.stringMatching(/169\.254\.169\.254/) });
    expect(await get('/file')).toMatchObject({ ok: false, kind: 'invalid_url' });
    expect(await get('/loop')).toMatchObject({ ok: false, kind: 'too_many_redirects' });
    // A name resolving to a covered address is let through; to an uncovered one, refused at connect time.
    const local = new GuardedFetcher({ userAgent: 'x', allow: AddressAllowance.parse('127.0.0.1/32'), lookup: (_h, _o, cb) => cb(null, [{ address: '127.0.0.2', family: 4 }]) });
    expect(await local.get({ url: `http://hidden.test:${new URL(hidden.origin).port}/`, maxBytes: 100, timeoutMs: 1000 })).toMatchObject({ ok: false, kind: 'blocked' });
    local.close();
    expect(hidden.connections()).toBe(0);
    // With no allowance at all, the site itself is refused.
    const strict = new GuardedFetcher({ userAgent: 'x' });
    expect(await strict.get({ url: `${site.origin}/page`, maxBytes: 100, timeoutMs: 1000 })).toMatchObject({ ok: false, kind: 'blocked' });
    expect(await strict.get({ url: `http://localhost:${new URL(site.origin).port}/page`, maxBytes: 100, timeoutMs: 1000 })).toMatchObject({ ok: false, kind: 'blocked' });
    strict.close();
  });

  it('caps the body (declared, streamed, or decompressed), decodes gzip, and times out', async () => {
    expect(await get('/big')).toMatchObject({ ok: false, kind: 'too_large' });
    expect(await get('/chunked-big')).toMatchObject({ ok: false, kind: 'too_large' });
    expect(await get('/bomb')).toMatchObject({ ok: false, kind: 'too_large' });
    const gz = await get('/gzip');
    expect(gz.ok && gz.body.toString()).toBe('<p>hello</p>');
    const started = Date.now();
    expect(await get('/slow', { timeoutMs: 300 })).toMatchObject({ ok: false, kind: 'timeout' });
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('parses allowances and judges addresses by them', () => {
    expect(() => AddressAllowance.parse('127.0.0.1,nonsense')).toThrow(/nonsense/);
    const a = AddressAllowance.parse('127.0.0.1, 10.1.0.0/16, ::1');
    expect(['127.0.0.1', '10.1.2.3', '::1', '::ffff:127.0.0.1', '8.8.8.8'].map((x) => isAllowedAddress(x, a))).toEqual([true, true, true, true, true]);
    expect(['127.0.0.2', '10.2.0.1', '169.254.169.254', 'fd00::1'].map((x) => isAllowedAddress(x, a))).toEqual([false, false, false, false]);
    expect(isAllowedAddress('10.0.0.1', false)).toBe(false);
    expect(isAllowedAddress('10.0.0.1', true)).toBe(true);
  });
});
