import { PreparedEntity } from '../entities/prepare-entities';
import { CitationAnalysis, ProviderCitation } from '../types';
import { domainOwner, registrableDomain } from './domain-owner';
import { labelDomain, normaliseUrl } from './normalise-url';

export interface CollectedCitations {
  readonly citations: CitationAnalysis[];
  readonly invalidUrls: string[];
}

/** Every URL of the text, then every provider URL, normalised, de-duplicated, in order of first appearance. */
export function collectCitations(inlineUrls: readonly string[], providerCitations: readonly ProviderCitation[], entities: readonly PreparedEntity[]): CollectedCitations {
  const byUrl = new Map<string, { analysis: CitationAnalysis; alsoIn: 'inline' | 'provider' | null }>();
  const invalidUrls: string[] = [];
  const add = (raw: string, source: 'inline' | 'provider'): void => {
    const n = normaliseUrl(raw);
    if (n === null) {
      invalidUrls.push(raw.length > 200 ? `${raw.slice(0, 200)}…` : raw);
      return;
    }
    const existing = byUrl.get(n.url);
    if (existing !== undefined) {
      if (existing.analysis.source !== source) existing.alsoIn = source;
      return;
    }
    byUrl.set(n.url, {
      analysis: {
        url: n.url,
        originalUrl: raw,
        host: n.host,
        domain: labelDomain(n.host),
        registrableDomain: registrableDomain(n.host),
        order: byUrl.size + 1,
        source,
        alsoIn: null,
        owner: domainOwner(n.host, entities),
      },
      alsoIn: null,
    });
  };
  for (const u of inlineUrls) add(u, 'inline');
  for (const c of providerCitations) {
    if (c !== null && typeof c === 'object' && typeof c.url === 'string') add(c.url, 'provider');
    else invalidUrls.push(String(c === null || typeof c !== 'object' ? c : c.url));
  }
  const citations = [...byUrl.values()].map(({ analysis, alsoIn }) => ({ ...analysis, alsoIn }));
  return { citations, invalidUrls };
}
