import { getDomain } from 'tldts';
import { PreparedEntity } from '../entities/prepare-entities';
import { CitationOwner } from '../types';

/** Whether a host is one of the domains or a subdomain of one ("uk.smart.com" belongs to "smart.com"). */
export function hostInDomains(host: string, domains: readonly string[]): boolean {
  for (const d of domains) {
    if (host === d || (host.length > d.length && host.endsWith(d) && host.charAt(host.length - d.length - 1) === '.')) return true;
  }
  return false;
}

/** Whether a URL's host belongs to one of the domains (false for anything unparsable). */
export function hostMatchesDomains(url: string, domains: readonly string[]): boolean {
  if (domains.length === 0) return false;
  const m = /^https?:\/\/([^/?#:]+)/i.exec(url);
  if (m === null) return false;
  return hostInDomains(m[1].toLowerCase(), domains);
}

const PLAIN_HOST_OPTIONS = { allowPrivateDomains: false, extractHostname: false, validateHostname: false, detectIp: false, mixedInputs: false } as const;

/**
 * Registrable domain of a host from the public-suffix list, or the host itself when there is none (IP address,
 * localhost). `plainHost`: the host is already a lower-case DNS name (no IP address, no URL around it), so tldts can
 * skip extracting and validating it.
 */
export function registrableDomain(host: string, plainHost = isPlainDnsName(host)): string {
  return (plainHost ? getDomain(host, PLAIN_HOST_OPTIONS) : getDomain(host, { allowPrivateDomains: false })) ?? host;
}

/** A lower-case DNS name of letters, digits, hyphens and dots whose last label does not start with a digit (so not an IP address). */
export function isPlainDnsName(host: string): boolean {
  if (host.length === 0 || host.length > 253) return false;
  let labelStart = 0;
  for (let i = 0; i < host.length; i++) {
    const c = host.charCodeAt(i);
    if (c === 46) {
      if (i === labelStart) return false;
      labelStart = i + 1;
    } else if (!((c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 45)) return false;
  }
  const last = host.charCodeAt(labelStart);
  return labelStart < host.length && !(last >= 48 && last <= 57);
}

/**
 * Whose domain a host is: the brand's if it matches, else the competitor with the most specific matching domain
 * (first listed on a tie), else other.
 */
export function domainOwner(host: string, entities: readonly PreparedEntity[]): CitationOwner {
  let best: PreparedEntity | null = null;
  let bestLength = -1;
  for (const e of entities) {
    for (const d of e.domains) {
      if (!hostInDomains(host, [d])) continue;
      const better = best === null || (e.kind === 'brand' && best.kind !== 'brand') || (e.kind === best.kind && d.length > bestLength);
      if (better) {
        best = e;
        bestLength = d.length;
      }
    }
  }
  if (best === null) return { kind: 'other' };
  return best.kind === 'brand' ? { kind: 'brand', entityId: best.id } : { kind: 'competitor', entityId: best.id };
}
