import { PreparedEntity } from '../entities/prepare-entities';
import { CitationAnalysis, CitationOwner, ProviderCitation } from '../types';
import { domainOwner, registrableDomain } from './domain-owner';
import { labelDomain, normaliseUrl } from './normalise-url';

export interface CollectedCitations {
  readonly citations: CitationAnalysis[];
  readonly invalidUrls: string[];
  /** For each inline URL, then each provider citation (in input order), the index of its citation, or -1 (invalid). */
  readonly citationOf: Int32Array;
}

/** A citation under construction (the public shape is read-only; `alsoIn` is settled while collecting). */
interface MutableCitation {
  url: string;
  originalUrl: string;
  host: string;
  domain: string;
  registrableDomain: string;
  order: number;
  source: 'inline' | 'provider';
  alsoIn: 'inline' | 'provider' | null;
  owner: CitationOwner;
}

/**
 * Every URL of the text, then every provider URL, normalised, de-duplicated, in order of first appearance. Each URL
 * is normalised once: `citationOf` tells the caller which citation an inline URL or provider citation became, so
 * that it need not normalise it again to find the citation's owner.
 */
export function collectCitations(inlineUrls: readonly string[], providerCitations: readonly ProviderCitation[], entities: readonly PreparedEntity[]): CollectedCitations {
  const citations: MutableCitation[] = [];
  const invalidUrls: string[] = [];
  const citationOf = new Int32Array(inlineUrls.length + providerCitations.length);
  if (citationOf.length === 0) return { citations, invalidUrls, citationOf };
  const byUrl = new Map<string, number>();
  const add = (raw: string, source: 'inline' | 'provider'): number => {
    const n = normaliseUrl(raw);
    if (n === null) {
      invalidUrls.push(raw.length > 200 ? `${raw.slice(0, 200)}…` : raw);
      return -1;
    }
    const existing = byUrl.get(n.url);
    if (existing !== undefined) {
      if (citations[existing].source !== source) citations[existing].alsoIn = source;
      return existing;
    }
    byUrl.set(n.url, citations.length);
    citations.push({
      url: n.url,
      originalUrl: raw,
      host: n.host,
      domain: labelDomain(n.host),
      registrableDomain: registrableDomain(n.host),
      order: citations.length + 1,
      source,
      alsoIn: null,
      owner: domainOwner(n.host, entities),
    });
    return citations.length - 1;
  };
  let k = 0;
  for (const u of inlineUrls) citationOf[k++] = add(u, 'inline');
  for (const c of providerCitations) {
    if (c !== null && typeof c === 'object' && typeof c.url === 'string') citationOf[k++] = add(c.url, 'provider');
    else {
      invalidUrls.push(String(c === null || typeof c !== 'object' ? c : c.url));
      citationOf[k++] = -1;
    }
  }
  return { citations, invalidUrls, citationOf };
}
