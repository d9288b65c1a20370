/**
 * Why a page (or a whole audit) was not scored: a stable code and a sentence for people. Both are
 * shown to customers, so neither names a host our resolver found nor an address: the page's own
 * URL is in the result beside them, and anything more (which address a name resolved to, the
 * system's error text) stays in the worker's logs.
 *
 * Codes: `invalid_url`, `outside_brand_domains`, `address_not_allowed`, `name_not_resolved`,
 * `connection_refused`, `connection_failed`, `tls_error`, `timeout`, `too_large`,
 * `too_many_redirects`, `bad_content_encoding`, `http_<status>` (e.g. `http_404`), `not_html`,
 * `bad_encoding`, `robots_disallowed`, `robots_unavailable`, `internal_error`; for an audit also
 * `not_a_sitemap`, `quota_exceeded` and `queue_unavailable`.
 */
export interface PageFailure {
  code: string;
  message: string;
}

/** The codes a page or an audit may carry (`http_<status>` stands for every HTTP status). */
export const PAGE_FAILURE_CODES = [
  'invalid_url',
  'outside_brand_domains',
  'address_not_allowed',
  'name_not_resolved',
  'connection_refused',
  'connection_failed',
  'tls_error',
  'timeout',
  'too_large',
  'too_many_redirects',
  'bad_content_encoding',
  'http_<status>',
  'not_html',
  'bad_encoding',
  'robots_disallowed',
  'robots_unavailable',
  'internal_error',
  'not_a_sitemap',
  'quota_exceeded',
  'queue_unavailable',
] as const;

export const OUTSIDE_BRAND_DOMAINS = "the URL's host is not one of the brand's domains or extra domains, nor a subdomain of one";

export const pageFailure = {
  invalidUrl: (problem: string): PageFailure => ({ code: 'invalid_url', message: `the URL ${problem}` }),
  outsideBrandDomains: (): PageFailure => ({ code: 'outside_brand_domains', message: OUTSIDE_BRAND_DOMAINS }),
  redirectedOutside: (): PageFailure => ({ code: 'outside_brand_domains', message: "redirected to a host that is not one of the brand's domains or extra domains, nor a subdomain of one" }),
  http: (status: number, what = 'the page'): PageFailure => ({ code: `http_${status}`, message: what === 'the page' ? `HTTP ${status}` : `${what} answered HTTP ${status}` }),
  notHtml: (contentType: string | undefined): PageFailure => ({ code: 'not_html', message: `not an HTML page (Content-Type ${contentType?.slice(0, 100) ?? 'missing'})` }),
  badEncoding: (reason: string): PageFailure => ({ code: 'bad_encoding', message: reason }),
  robotsDisallowed: (agent: string, what = 'this URL'): PageFailure => ({ code: 'robots_disallowed', message: `robots.txt disallows ${agent} from ${what}` }),
  /** robots.txt answered 5xx, or could not be read for another reason than the site being unreachable (RFC 9309 §2.3.1.4: nothing may be fetched). */
  robotsUnavailable: (why: string): PageFailure => ({ code: 'robots_unavailable', message: `robots.txt could not be read (${why}): nothing on the site may be fetched until it can be` }),
  internal: (): PageFailure => ({ code: 'internal_error', message: 'the page could not be audited because of an error of the service (logged); audit it again' }),
  notASitemap: (reason: string): PageFailure => ({ code: 'not_a_sitemap', message: reason }),
  quotaExceeded: (): PageFailure => ({ code: 'quota_exceeded', message: "the organisation's page-audit quota is used up: no page could be audited" }),
  queueUnavailable: (): PageFailure => ({ code: 'queue_unavailable', message: 'the audit could not be queued' }),
};
