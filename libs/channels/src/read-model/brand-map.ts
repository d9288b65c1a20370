import type { EntityManager } from 'typeorm';
import { clientBrandDomainFacts } from '@libs/tenancy';
import type { BrandHint } from '../domain';

type Query = Pick<EntityManager, 'query'>;

/** A brand's id and domains, as `brands` holds them (tenancy's `BrandDomainsFactRow`). */
export interface BrandDomains {
  id: string | number;
  domain: string;
  extra_domains: string[];
}

/** A host from a URL, `sc-domain:` property, or host name: lower case, no `www.`. */
export function hostOf(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/^sc-domain:/, '')
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .replace(/[/?#:].*$/, '')
    .replace(/^www\./, '');
}

/**
 * Which brand of a client a row belongs to (DESIGN §13.3): the brand whose domain (or extra
 * domain, or a parent domain of the row's host) the row comes from, else the channel's brand.
 */
export class BrandMap {
  private constructor(
    private readonly byDomain: ReadonlyMap<string, number>,
    readonly brandIds: ReadonlySet<number>,
    private readonly fallback: number | null,
  ) {}

  static async load(m: Query, organizationId: number, clientId: number, fallback: number | null): Promise<BrandMap> {
    const facts = clientBrandDomainFacts(organizationId, clientId);
    const rows: BrandDomains[] = await m.query(facts.text, facts.params);
    return BrandMap.of(rows, fallback);
  }

  /** The map of a client's brands (rows as `brands` holds them, by id). */
  static of(rows: readonly BrandDomains[], fallback: number | null): BrandMap {
    const byDomain = new Map<string, number>();
    for (const r of rows) for (const d of [r.domain, ...r.extra_domains]) if (!byDomain.has(hostOf(d))) byDomain.set(hostOf(d), Number(r.id));
    return new BrandMap(byDomain, new Set(rows.map((r) => Number(r.id))), fallback);
  }

  /** The brand whose domain the host is, or is under; undefined when none. */
  ofDomain(domain: string): number | undefined {
    let host = hostOf(domain);
    for (;;) {
      const found = this.byDomain.get(host);
      if (found !== undefined) return found;
      const dot = host.indexOf('.');
      if (dot < 0 || host.indexOf('.', dot + 1) < 0) return undefined;
      host = host.slice(dot + 1);
    }
  }

  /** The brand of a row: its brandId when the client has it, its domain's brand, else the channel's (null: none). */
  brandOf(hint: BrandHint): number | null {
    if (hint.brandId !== undefined && hint.brandId !== null && this.brandIds.has(hint.brandId)) return hint.brandId;
    if (hint.domain) return this.ofDomain(hint.domain) ?? this.fallback;
    return this.fallback;
  }
}
