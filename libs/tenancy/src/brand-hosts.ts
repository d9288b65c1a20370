import type { Brand } from './tenancy.repository';

/**
 * Whether a host belongs to a brand: it is the brand's domain or one of its extra domains, or a
 * subdomain of one (`www.acme.com`, `docs.acme.com` for `acme.com`), compared case-insensitively
 * and without a trailing dot. An IP address is no brand's (brand domains are names). The same rule
 * places agent-analytics visits under a brand.
 */
export function brandCoversHost(brand: Pick<Brand, 'domain' | 'extraDomains'>, host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  if (!h || h.startsWith('[') || /^[\d.]+$/.test(h) || h.includes(':')) return false;
  return [brand.domain, ...brand.extraDomains].some((d) => h === d || h.endsWith(`.${d}`));
}
