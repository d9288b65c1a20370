import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { startLocalDns } from '../../../test/support/local-dns';
import { AddressAllowance, isAllowedAddress } from './address-guard';
import { parseDnsServers, resolverLookup } from './dns-lookup';
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
    expect(await get('/private')).toMatchObject({ ok: false, kind: 'address_not_allowed', reason: expect.stringMatching(/127\.0\.0\.2/) });
    expect(await get('/metadata')).toMatchObject({ ok: false, kind: 'address_not_allowed', reason: expect.stringMatching(/169\.254\.169\.254/) });
    expect(await get('/file')).toMatchObject({ ok: false, kind: 'invalid_url' });
    expect(await get('/loop')).toMatchObject({ ok: false, kind: 'too_many_redirects' });
    // A name resolving to a covered address is let through; to an uncovered one, refused at connect time.
    const local = new GuardedFetcher({ userAgent: 'x', allow: AddressAllowance.parse('127.0.0.1/32'), lookup: (_h, _o, cb) => cb(null, [{ address: '127.0.0.2', family: 4 }]) });
    expect(await local.get({ url: `http://hidden.test:${new URL(hidden.origin).port}/`, maxBytes: 100, timeoutMs: 1000 })).toMatchObject({ ok: false, kind: 'address_not_allowed' });
    local.close();
    expect(hidden.connections()).toBe(0);
    // With no allowance at all, the site itself is refused.
    const strict = new GuardedFetcher({ userAgent: 'x' });
    expect(await strict.get({ url: `${site.origin}/page`, maxBytes: 100, timeoutMs: 1000 })).toMatchObject({ ok: false, kind: 'address_not_allowed' });
    expect(await strict.get({ url: `http://localhost:${new URL(site.origin).port}/page`, maxBytes: 100, timeoutMs: 1000 })).toMatchObject({ ok: false, kind: 'address_not_allowed' });
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

  it('says why in a stable code and a sentence naming no host and no address; the detail stays in `reason`', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const named = (addresses: string[]) => new GuardedFetcher({ userAgent: 'x', allow, lookup: (h, _o, cb) => (addresses.length ? cb(null, addresses.map((address) => ({ address, family: 4 }))) : cb(Object.assign(new Error(`getaddrinfo ENOTFOUND ${h}`), { code: 'ENOTFOUND', syscall: 'getaddrinfo', hostname: h }), [])) });
    const internal = named(['10.20.30.40']);
    const nowhere = named([]);
    const cases = [
      [await internal.get({ url: 'http://vm.internal.test/', maxBytes: 100, timeoutMs: 1000 }), 'address_not_allowed', /^address not allowed: the host is, or resolves to, an address that is not public/],
      [await get('/private'), 'address_not_allowed', /^address not allowed: redirected to a host/],
      [await nowhere.get({ url: 'http://vm.internal.test/', maxBytes: 100, timeoutMs: 1000 }), 'name_not_resolved', /^name not resolved: the host name has no address$/],
      [await fetcher.get({ url: `http://127.0.0.1:${closedPort}/`, maxBytes: 100, timeoutMs: 1000 }), 'connection_refused', /^connection refused by the server$/],
      [await fetcher.get({ url: `${site.origin}/page`, maxBytes: 100, timeoutMs: 1000, allowHost: (h) => h === 'acme.test' }), 'host_not_allowed', /^host not allowed/],
    ] as const;
    for (const [result, kind, message] of cases) {
      expect(result).toMatchObject({ ok: false, kind, message: expect.stringMatching(message) });
      if (!result.ok) expect(result.message).not.toMatch(/10\.20\.30\.40|127\.0\.0|vm\.internal|ENOTFOUND|ECONNREFUSED|getaddrinfo|acme/);
    }
    // The detail is kept for logs.
    expect(cases[0][0]).toMatchObject({ reason: expect.stringMatching(/vm\.internal\.test \(10\.20\.30\.40\)/) });
    expect(cases[2][0]).toMatchObject({ reason: expect.stringMatching(/ENOTFOUND/) });
    internal.close();
    nowhere.close();
  });

  it('checks the host rule on every redirect before connecting', async () => {
    const seenBefore = seen.length;
    // /hop redirects within the same host: allowed by a rule admitting it.
    expect(await get('/hop', { allowHost: (h) => h === '127.0.0.1' })).toMatchObject({ ok: true, status: 200 });
    // /private redirects to 127.0.0.2: refused by the rule, not by the guard, and nothing connects there.
    expect(await get('/private', { allowHost: (h) => h === '127.0.0.1' })).toMatchObject({ ok: false, kind: 'host_not_allowed', message: expect.stringMatching(/^host not allowed: redirected to a host/) });
    expect(seen.length - seenBefore).toBe(3);
    expect(hidden.connections()).toBe(0);
  });

  it('resolves names with the DNS servers given (a local server here), not the system resolver', async () => {
    const dns = await startLocalDns({ a: { 'site.acme.test': ['127.0.0.1'], 'db.acme.test': ['10.0.0.9'] } });
    const viaDns = new GuardedFetcher({ userAgent: 'x', allow, lookup: resolverLookup(parseDnsServers(dns.address), 1000) });
    try {
      const port = new URL(site.origin).port;
      expect(await viaDns.get({ url: `http://site.acme.test:${port}/page`, maxBytes: 1000, timeoutMs: 2000 })).toMatchObject({ ok: true, status: 200 });
      expect(await viaDns.get({ url: `http://db.acme.test:${port}/page`, maxBytes: 1000, timeoutMs: 2000 })).toMatchObject({ ok: false, kind: 'address_not_allowed' });
      expect(await viaDns.get({ url: `http://nothing.acme.test:${port}/page`, maxBytes: 1000, timeoutMs: 2000 })).toMatchObject({ ok: false, kind: 'name_not_resolved' });
      // localhost is the system's name (/etc/hosts), unknown to the servers asked.
      expect(await viaDns.get({ url: `http://localhost:${port}/page`, maxBytes: 1000, timeoutMs: 2000 })).toMatchObject({ ok: false, kind: 'name_not_resolved' });
      expect(dns.queries).toEqual(expect.arrayContaining(['site.acme.test', 'db.acme.test', 'nothing.acme.test', 'localhost']));
    } finally {
      viaDns.close();
      await dns.close();
    }
    expect(() => parseDnsServers('127.0.0.1:5353, [::1]:53, 8.8.8.8')).not.toThrow();
    for (const bad of ['', 'dns.example', '127.0.0.1:99999', '1.2.3']) expect(() => parseDnsServers(bad)).toThrow(RangeError);
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
