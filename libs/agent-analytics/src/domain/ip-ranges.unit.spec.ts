import { dottedQuad, normaliseIp, parseIp, prefixesOfPublishedRanges, PrefixTable } from './ip-ranges';
import { parseUrlPattern } from './url-pattern';

describe('the prefix table', () => {
  const table = new PrefixTable([
    { cidr: '20.171.206.0/24', owner: 'gptbot' },
    { cidr: '20.171.0.0/16', owner: 'wide' },
    { cidr: '74.7.227.128/25', owner: 'gptbot' },
    { cidr: '2001:db8:1::/48', owner: 'v6bot' },
  ]);

  it('finds every owner of the prefixes holding an address, IPv4, IPv4-mapped and IPv6', () => {
    expect(table.owners('20.171.206.12').sort()).toEqual(['gptbot', 'wide']);
    expect(table.owners('20.171.5.1')).toEqual(['wide']);
    expect(table.contains('74.7.227.200', 'gptbot')).toBe(true);
    expect(table.contains('74.7.227.127', 'gptbot')).toBe(false);
    expect(table.contains('::ffff:20.171.206.1', 'gptbot')).toBe(true);
    expect(table.contains('2001:db8:1:ffff::1', 'v6bot')).toBe(true);
    expect(table.contains('2001:db8:2::1', 'v6bot')).toBe(false);
    expect(table.owners('not an address')).toEqual([]);
    expect(table.owners('0x14.1')).toEqual([]);
  });

  it('scales: 100,000 prefixes, a lookup in microseconds', () => {
    const many = new PrefixTable(Array.from({ length: 100_000 }, (_, i) => ({ cidr: `${10 + (i >> 16)}.${(i >> 8) & 255}.${i & 255}.0/24`, owner: i })));
    const found: number[][] = [];
    const t = process.hrtime.bigint();
    for (let i = 0; i < 10_000; i++) found.push(many.owners(`${10 + (i >> 16)}.${(i >> 8) & 255}.${i & 255}.7`));
    expect(Number(process.hrtime.bigint() - t) / 1e6).toBeLessThan(2000);
    expect(found.every((owners, i) => owners.length === 1 && owners[0] === i)).toBe(true);
  });

  it('reads the operators published format and normalises addresses', () => {
    expect(prefixesOfPublishedRanges({ creationTime: 'x', prefixes: [{ ipv4Prefix: '1.2.3.0/24' }, { ipv6Prefix: '2001:db8::/32' }, { ipv4Prefix: 'junk' }] })).toEqual(['1.2.3.0/24', '2001:db8::/32']);
    expect(() => prefixesOfPublishedRanges({})).toThrow();
    expect(normaliseIp('::FFFF:1.2.3.4')).toBe('1.2.3.4');
    expect(normaliseIp('2001:0db8::0001')).toBe('2001:db8::1');
    expect(normaliseIp('1.2.3')).toBeNull();
  });
});

describe('URL patterns', () => {
  it('turns * into LIKE wildcards and keeps %, _ and \\ literal', () => {
    expect(parseUrlPattern('/blog/*')).toEqual({ host: null, path: '/blog/%' });
    expect(parseUrlPattern('/100%_off')).toEqual({ host: null, path: '/100\\%\\_off' });
    expect(parseUrlPattern('https://*.acme.example/docs/*')).toEqual({ host: '%.acme.example', path: '/docs/%' });
    expect(parseUrlPattern('https://acme.example')).toEqual({ host: 'acme.example', path: '/%' });
  });

  it.each(['', 'blog/*', 'javascript:alert(1)', '/a b', 'https:///x', `/${'a'.repeat(2048)}`, 'ftp://x/y'])('refuses %j', (p) => {
    expect('problem' in parseUrlPattern(p)).toBe(true);
  });
});

describe('dotted quads', () => {
  it.each([
    ['0.0.0.0', 0],
    ['1.2.3.4', 0x01020304],
    ['255.255.255.255', 0xffffffff],
    ['20.171.206.12', (20 * 2 ** 24) + (171 << 16) + (206 << 8) + 12],
  ])('reads %s', (ip, value) => {
    expect(dottedQuad(ip)).toBe(value);
    expect(parseIp(ip)).toEqual({ kind: 4, value });
  });

  it.each(['256.1.1.1', '1.2.3', '1.2.3.4.5', '01.2.3.4', '1..2.3', '1.2.3.', '.1.2.3', '1.2.3.4 ', 'a.b.c.d', '1.2.3.1000', ''])('leaves %j to the full parser', (ip) => {
    expect(dottedQuad(ip)).toBe(-1);
  });
});
