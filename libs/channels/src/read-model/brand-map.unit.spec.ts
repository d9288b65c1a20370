import { BrandMap, hostOf } from './brand-map';

describe('rows to brands', () => {
  it('takes the host of a URL, a Search Console domain property or a host', () => {
    expect(hostOf('https://www.Acme.example/pricing?x=1')).toBe('acme.example');
    expect(hostOf('sc-domain:acme.example')).toBe('acme.example');
    expect(hostOf('shop.acme.example:8443')).toBe('shop.acme.example');
  });

  it('maps a row to the brand whose domain (or a parent domain) it comes from, else the channel’s brand', () => {
    const rows = [
      { id: '1', domain: 'acme.example', extra_domains: ['acme.co.uk'] },
      { id: '2', domain: 'labs.acme.example', extra_domains: [] },
    ];
    const map = BrandMap.of(rows, 9);
    expect(map.brandOf({ domain: 'https://blog.acme.example/a' })).toBe(1);
    expect(map.brandOf({ domain: 'https://labs.acme.example/' })).toBe(2);
    expect(map.brandOf({ domain: 'www.acme.co.uk' })).toBe(1);
    expect(map.brandOf({ domain: 'other.example' })).toBe(9);
    expect(map.brandOf({ brandId: 2 })).toBe(2);
    expect(map.brandOf({ brandId: 77 })).toBe(9);
    expect(map.brandOf({})).toBe(9);
    expect(map.ofDomain('example')).toBeUndefined();
  });
});
