import { logParser, parseTimeLocal, unescapeLogField, type ParsedLine } from './log-formats';

const now = () => Date.parse('2026-11-25T12:00:00Z');
const visit = (r: ParsedLine) => {
  if (!('visit' in r)) throw new Error(`not a visit: ${JSON.stringify(r)}`);
  return r.visit;
};
const reason = (r: ParsedLine) => ('reason' in r ? r.reason : null);

describe('nginx and apache combined', () => {
  const nginx = logParser('nginx', { host: 'www.acme.example', now });

  it('reads a combined line with the time zone, quoted fields and the bytes', () => {
    const v = visit(nginx.parse('20.171.206.12 - - [24/Nov/2026:08:15:02 +0100] "GET /pricing?plan=pro HTTP/1.1" 200 5120 "-" "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)"'));
    expect(v).toMatchObject({ at: Date.parse('2026-11-24T07:15:02Z'), method: 'GET', host: 'www.acme.example', path: '/pricing?plan=pro', status: 200, bytes: 5120, ip: '20.171.206.12', referer: null });
    expect(v.userAgent).toContain('GPTBot/1.2');
  });

  it('undoes nginx \\x22 and apache \\" escapes inside quoted fields', () => {
    const v = visit(nginx.parse('1.2.3.4 - - [24/Nov/2026:08:15:02 +0000] "GET /a HTTP/1.1" 404 - "https://chatgpt.com/" "Bot \\x22quoted\\x22 and \\"json\\""'));
    expect(v.userAgent).toBe('Bot "quoted" and "json"');
    expect(v.bytes).toBeNull();
    expect(v.referer).toBe('https://chatgpt.com/');
    expect(unescapeLogField('a\\\\b')).toBe('a\\b');
  });

  it('reads a run of nginx \\xHH byte escapes as UTF-8 (a path with é or 日本 is stored as written), bytes that are no UTF-8 as U+FFFD', () => {
    const v = visit(nginx.parse('1.2.3.4 - - [24/Nov/2026:08:15:02 +0000] "GET /caf\\xC3\\xA9/\\xE6\\x97\\xA5\\xE6\\x9C\\xAC HTTP/1.1" 200 5 "-" "GPTBot/1.2"'));
    expect(v.path).toBe('/café/日本');
    expect(unescapeLogField('a\\xFFb\\x22')).toBe('a\uFFFDb"');
  });

  it('reads IPv6 clients, a vhost prefix, extra trailing fields and CRLF-free lines', () => {
    const v = visit(logParser('apache', { now }).parse('docs.acme.example:443 2001:db8::1 - frank [24/Nov/2026:23:59:59 -0500] "POST /api HTTP/2.0" 201 12 "-" "curl/8" 0.123 "x"'));
    expect(v).toMatchObject({ host: 'docs.acme.example', ip: '2001:db8::1', method: 'POST', status: 201, at: Date.parse('2026-11-25T04:59:59Z') });
  });

  it.each([
    ['not a line at all', 'not a combined log line'],
    ['1.2.3.4 - - [31/Feb/2026:08:15:02 +0000] "GET / HTTP/1.1" 200 1 "-" "x"', 'the time is not a real instant'],
    ['1.2.3.4 - - [24/Nov/2031:08:15:02 +0000] "GET / HTTP/1.1" 200 1 "-" "x"', 'the time is more than a day in the future'],
    ['999.2.3.4 - - [24/Nov/2026:08:15:02 +0000] "GET / HTTP/1.1" 200 1 "-" "x"', 'the client address is not an IP address'],
    ['1.2.3.4 - - [24/Nov/2026:08:15:02 +0000] "\\x16\\x03\\x01" 400 1 "-" "-"', 'the request is not'],
    ['1.2.3.4 - - [24/Nov/2026:08:15:02 +0000] "GET / HTTP/1.1" 200 1 "-" "\u0001\u0002binary\ufffd"', 'the user agent is not printable text'],
    ['acme.example:99999 1.2.3.4 - - [24/Nov/2026:08:15:02 +0000] "GET / HTTP/1.1" 200 1 "-" "x"', 'impossible port'],
  ])('rejects %j with a reason', (line, why) => {
    expect(reason(nginx.parse(line))).toContain(why);
  });

  it('needs a host when the line names none', () => {
    expect(reason(logParser('nginx', { now }).parse('1.2.3.4 - - [24/Nov/2026:08:15:02 +0000] "GET / HTTP/1.1" 200 1 "-" "x"'))).toContain('names no host');
  });

  it('reads each second of a minute exactly, and a bad second as no instant, whatever the line before it', () => {
    const at = (time: string) => {
      const r = nginx.parse(`1.2.3.4 - - [${time}] "GET / HTTP/1.1" 200 1 "-" "x"`);
      return 'visit' in r ? r.visit.at : reason(r);
    };
    expect(at('24/Nov/2026:08:15:02 +0100')).toBe(Date.parse('2026-11-24T07:15:02Z'));
    expect(at('24/Nov/2026:08:15:59 +0100')).toBe(Date.parse('2026-11-24T07:15:59Z'));
    expect(at('24/Nov/2026:08:15:00 +0100')).toBe(Date.parse('2026-11-24T07:15:00Z'));
    expect(at('24/Nov/2026:08:15:60 +0100')).toBe('the time is not a real instant');
    expect(at('24/Nov/2026:08:15:6x +0100')).toBe('the time is not a real instant');
    expect(at('24/Nov/2026:08:15:02 -0100')).toBe(Date.parse('2026-11-24T09:15:02Z'));
    expect(at('24/Nov/2026:08:16:01 -0100')).toBe(Date.parse('2026-11-24T09:16:01Z'));
    expect(at('24/Nov/2026:08:16 -0100')).toBe('the time is not a real instant');
    expect(at('31/Feb/2026:08:16:01 -0100')).toBe('the time is not a real instant');
    expect(at('31/Feb/2026:08:16:02 -0100')).toBe('the time is not a real instant');
  });

  it('parses $time_local exactly', () => {
    expect(parseTimeLocal('10/Oct/2000:13:55:36 -0700')).toBe(Date.parse('2000-10-10T20:55:36Z'));
    expect(parseTimeLocal('29/Feb/2025:00:00:00 +0000')).toBeNull();
    expect(parseTimeLocal('10/Foo/2000:13:55:36 -0700')).toBeNull();
  });
});

describe('CloudFront', () => {
  const fields = '#Fields: date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer) cs(User-Agent) cs-uri-query cs(Cookie) x-edge-result-type x-edge-request-id x-host-header cs-protocol cs-bytes time-taken';
  const line = (ua: string, extra: Partial<Record<'ip' | 'query' | 'status', string>> = {}) =>
    ['2026-11-24', '08:15:02', 'FRA56-C1', '5120', extra.ip ?? '2600:1f18::1', 'GET', 'd111111abcdef8.cloudfront.net', '/blog/post', extra.status ?? '200', 'https://perplexity.ai/search?q=x', ua, extra.query ?? 'a=1&b=2', '-', 'Hit', 'abc==', 'www.acme.example', 'https', '120', '0.042'].join('\t');

  it('takes the columns from #Fields, URL-decodes the user agent and referer, joins the query', () => {
    const p = logParser('cloudfront', { now });
    expect(p.parse('#Version: 1.0')).toEqual({ skip: true });
    expect(p.parse(fields)).toEqual({ skip: true });
    const v = visit(p.parse(line('Mozilla/5.0%20AppleWebKit/537.36%20(KHTML,%20like%20Gecko;%20compatible;%20PerplexityBot/1.0;%20+https://perplexity.ai/perplexitybot)')));
    expect(v).toMatchObject({ host: 'www.acme.example', path: '/blog/post?a=1&b=2', ip: '2600:1f18::1', status: 200, bytes: 5120, durationMs: 42, referer: 'https://perplexity.ai/search?q=x' });
    expect(v.userAgent).toBe('Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)');
  });

  it('decodes a twice-encoded user agent and rejects broken encoding and missing fields', () => {
    const p = logParser('cloudfront', { now });
    p.parse(fields);
    expect(visit(p.parse(line('GPTBot%252F1.0'))).userAgent).toBe('GPTBot/1.0');
    expect(reason(p.parse(line('bad%E0%A4%A')))).toContain('percent-encoding');
    expect(reason(p.parse('2026-11-24\t08:15:02\tFRA'))).toContain('not a CloudFront log line');
  });
});

describe('Cloudflare Logpush and NDJSON', () => {
  it('reads http_requests fields with RFC 3339, second and nanosecond timestamps', () => {
    const p = logParser('cloudflare', { now });
    const base = { ClientIP: '74.7.227.10', ClientRequestHost: 'acme.example', ClientRequestMethod: 'GET', ClientRequestURI: '/a?b=1', ClientRequestUserAgent: 'ClaudeBot/1.0', ClientRequestReferer: '', EdgeResponseStatus: 403, EdgeResponseBytes: 10 };
    expect(visit(p.parse(JSON.stringify({ ...base, EdgeStartTimestamp: '2026-11-24T08:15:02Z' }))).at).toBe(Date.parse('2026-11-24T08:15:02Z'));
    expect(visit(p.parse(JSON.stringify({ ...base, EdgeStartTimestamp: 1795508102 }))).at).toBe(1795508102000);
    expect(visit(p.parse(JSON.stringify({ ...base, EdgeStartTimestamp: 1795508102123456000 }))).at).toBe(1795508102123);
    expect(reason(p.parse('{"ClientIP": oops'))).toContain('not a JSON object');
    expect(reason(p.parse(JSON.stringify({ ...base, EdgeStartTimestamp: '2026-13-01T00:00:00Z' })))).toContain('not a real instant');
  });

  it('reads the ingest entry format and names every problem of a bad entry', () => {
    const p = logParser('ndjson', { now });
    const v = visit(p.parse(JSON.stringify({ timestamp: '2026-11-24T08:15:02.5+02:00', method: 'get', host: 'ACME.example:8443', path: '/', status: 200, ip: '::ffff:20.171.206.12', userAgent: 'GPTBot' })));
    expect(v).toMatchObject({ at: Date.parse('2026-11-24T06:15:02.500Z'), method: 'GET', host: 'acme.example', ip: '20.171.206.12' });
    const why = reason(p.parse(JSON.stringify({ timestamp: '2026-02-30T00:00:00Z', method: 'GET', host: 'acme.example:0', path: 'x', status: 700, ip: 'nope', userAgent: 'x' })));
    for (const f of ['timestamp', 'host', 'path', 'status', 'ip']) expect(why).toContain(f);
  });
});

describe('values the columns can hold (issue 28, items 1 and 2)', () => {
  const nginxLine = (ip: string, bytes = '512') => `${ip} - - [24/Nov/2026:08:15:02 +0000] "GET /a HTTP/1.1" 200 ${bytes} "-" "GPTBot/1.2"`;
  const nginx = logParser('nginx', { host: 'www.acme.example', now });

  it('drops the zone of an IPv6 address (fe80::1%eth0 is fe80::1), which PostgreSQL refuses', () => {
    expect(visit(nginx.parse(nginxLine('fe80::1%eth0'))).ip).toBe('fe80::1');
    expect(visit(nginx.parse(nginxLine('FE80::0001%25en0'))).ip).toBe('fe80::1');
    expect(reason(nginx.parse(nginxLine('fe80::1%')))).toContain('not an IP address');
    expect(reason(nginx.parse(nginxLine('1.2.3.4%eth0')))).toContain('not an IP address');
    const entry = { timestamp: '2026-11-24T08:15:02Z', method: 'GET', host: 'acme.example', path: '/', status: 200, ip: 'fe80::1%eth0', userAgent: 'GPTBot' };
    expect(visit(logParser('ndjson', { now }).parse(JSON.stringify(entry))).ip).toBe('fe80::1');
  });

  it('refuses an nginx byte count beyond 2^53 - 1 (bigint, exact in JavaScript)', () => {
    expect(visit(nginx.parse(nginxLine('1.2.3.4', '9007199254740991'))).bytes).toBe(9007199254740991);
    expect(reason(nginx.parse(nginxLine('1.2.3.4', '9007199254740992')))).toBe('the byte count is not a whole number from 0 to 9007199254740991');
    expect(reason(nginx.parse(nginxLine('1.2.3.4', '99999999999999999999999')))).toContain('the byte count');
  });

  it('refuses a CloudFront time-taken beyond 2,147,483,647 ms (integer), a byte count that is no count and a fractional status', () => {
    const p = logParser('cloudfront', { now });
    p.parse('#Fields: date time sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer) cs(User-Agent) cs-uri-query time-taken');
    const line = (bytes: string, taken: string, status = '200') => ['2026-11-24', '08:15:02', bytes, '20.171.206.1', 'GET', 'acme.example', '/a', status, '-', 'GPTBot/1.2', '-', taken].join('\t');
    expect(visit(p.parse(line('10', '2147483.647'))).durationMs).toBe(2_147_483_647);
    expect(visit(p.parse(line('-', '-')))).toMatchObject({ bytes: null, durationMs: null });
    expect(reason(p.parse(line('10', '2147483.648')))).toBe('the time taken is not a whole number of milliseconds from 0 to 2147483647');
    expect(reason(p.parse(line('10', '99999999999')))).toContain('the time taken');
    expect(reason(p.parse(line('-5', '0.1')))).toContain('the byte count');
    expect(reason(p.parse(line('12345678901234567890', '0.1')))).toContain('the byte count');
    expect(reason(p.parse(line('10', 'soon')))).toContain('the time taken');
    expect(reason(p.parse(line('10', '0.1', '200.5')))).toBe('the status is not from 100 to 599');
  });

  it('refuses a fractional, negative or oversized Cloudflare EdgeResponseBytes, and derives the duration from the edge times', () => {
    const p = logParser('cloudflare', { now });
    const base = { ClientIP: '74.7.227.10', ClientRequestHost: 'acme.example', ClientRequestMethod: 'GET', ClientRequestURI: '/', ClientRequestUserAgent: 'ClaudeBot/1.0', EdgeResponseStatus: 200, EdgeStartTimestamp: 1795508102000000000 };
    const line = (extra: Record<string, unknown>) => p.parse(JSON.stringify({ ...base, ...extra }));
    expect(visit(line({ EdgeResponseBytes: 10, EdgeEndTimestamp: 1795508102042000000 }))).toMatchObject({ bytes: 10, durationMs: 42 });
    expect(visit(line({}))).toMatchObject({ bytes: null, durationMs: null });
    expect(reason(line({ EdgeResponseBytes: 10.5 }))).toContain('the byte count');
    expect(reason(line({ EdgeResponseBytes: -1 }))).toContain('the byte count');
    expect(reason(line({ EdgeResponseBytes: 1e300 }))).toContain('the byte count');
    expect(reason(line({ EdgeResponseBytes: '10' }))).toContain('the byte count');
    expect(reason(line({ EdgeResponseStatus: 200.5 }))).toBe('the status is not from 100 to 599');
    // An end before the start, or a month after it, is no duration a request had.
    expect(reason(line({ EdgeEndTimestamp: 1795508101000000000 }))).toContain('the time taken');
    expect(reason(line({ EdgeEndTimestamp: 1795508102000000000 + 30 * 86_400 * 1e9 }))).toContain('the time taken');
  });

  it('bounds durationMs of an ingest entry to the integer column and names the field', () => {
    const p = logParser('ndjson', { now });
    const entry = { timestamp: '2026-11-24T08:15:02Z', method: 'GET', host: 'acme.example', path: '/', status: 200, ip: '1.2.3.4', userAgent: 'GPTBot' };
    expect(visit(p.parse(JSON.stringify({ ...entry, durationMs: 2_147_483_647 }))).durationMs).toBe(2_147_483_647);
    expect(reason(p.parse(JSON.stringify({ ...entry, durationMs: 2_147_483_648 })))).toBe('durationMs must be a whole number from 0 to 2147483647');
    expect(reason(p.parse(JSON.stringify({ ...entry, bytes: -1 })))).toBe('bytes must be a whole number from 0 to 9007199254740991');
    expect(reason(p.parse(JSON.stringify({ ...entry, bytes: 1.5 })))).toContain('bytes must be a whole number');
  });
});
