import { brandCoversHost } from './brand-hosts';

describe('brandCoversHost', () => {
  const brand = { domain: 'acme.com', extraDomains: ['acme.co.uk', 'acme-shop.example'] };

  it('takes the brand’s domains, its extra domains and their subdomains, in any case, with a trailing dot', () => {
    for (const host of ['acme.com', 'www.acme.com', 'docs.eu.acme.com', 'ACME.com', 'acme.com.', 'acme.co.uk', 'shop.acme.co.uk', 'acme-shop.example']) expect({ host, covered: brandCoversHost(brand, host) }).toEqual({ host, covered: true });
  });

  it('refuses look-alikes, parents, other domains and addresses', () => {
    for (const host of ['evilacme.com', 'acme.com.evil.example', 'com', 'co.uk', 'example.org', 'acme.org', '127.0.0.1', '[::1]', '::1', '', 'acme-shop.example.net']) expect({ host, covered: brandCoversHost(brand, host) }).toEqual({ host, covered: false });
  });
});
