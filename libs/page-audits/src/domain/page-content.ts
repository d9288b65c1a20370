import { Parser } from 'htmlparser2';
import { TextDecoder } from 'node:util';

/** The most URLs one audit covers (a request with more is 400; a sitemap's extra URLs are dropped and counted). */
export const MAX_AUDIT_URLS = 1000;
export const MAX_URL_LENGTH = 2048;

/** Why a URL cannot be audited, or null: it must be an absolute http(s) URL without credentials. */
export function urlProblem(text: unknown): string | null {
  if (typeof text !== 'string') return 'must be a string';
  if (!text.length || text.length > MAX_URL_LENGTH) return `must be 1 to ${MAX_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'is not a valid absolute URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `must be http or https, not ${url.protocol.replace(/:$/, '')}`;
  if (url.username || url.password) return 'must not carry credentials';
  if (!url.hostname) return 'has no host';
  return null;
}

/** A URL as audits key it: parsed and printed back, without its fragment. */
export function normaliseUrl(text: string): string {
  const url = new URL(text);
  url.hash = '';
  return url.toString();
}

/** Whether a Content-Type is HTML (a missing one is judged by the body). */
export function isHtml(contentType: string | undefined, body: Buffer): boolean {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (type) return type === 'text/html' || type === 'application/xhtml+xml';
  const head = body.subarray(0, 512).toString('latin1').trimStart().toLowerCase();
  return head.startsWith('<!doctype html') || head.startsWith('<html');
}

function charsetOf(contentType: string | undefined, body: Buffer): string {
  const declared = /charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '');
  if (declared) return declared[1].toLowerCase();
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'utf-8';
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  const head = body.subarray(0, 2048).toString('latin1');
  const meta = /<meta[^>]+charset\s*=\s*["']?([A-Za-z0-9_:.-]+)/i.exec(head);
  return meta ? meta[1].toLowerCase() : 'utf-8';
}

/**
 * The body as text in its declared charset (header, byte-order mark, or `<meta charset>`; UTF-8
 * when none). A body that is not valid in that charset, or a charset nobody knows, is a reason,
 * not an exception.
 */
export function decodeBody(contentType: string | undefined, body: Buffer): { ok: true; text: string; charset: string } | { ok: false; reason: string } {
  const charset = charsetOf(contentType, body);
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset, { fatal: true });
  } catch {
    return { ok: false, reason: `unknown character encoding "${charset.slice(0, 40)}"` };
  }
  try {
    const text = decoder.decode(body);
    if (text.includes('\u0000')) return { ok: false, reason: `the body is binary, not ${decoder.encoding} text` };
    return { ok: true, text, charset: decoder.encoding };
  } catch {
    return { ok: false, reason: `the body is not valid ${decoder.encoding} (broken encoding)` };
  }
}

export type Sitemap = { ok: true; kind: 'urlset' | 'sitemapindex'; locations: string[] } | { ok: false; reason: string };

/**
 * A sitemap (sitemaps.org): a `<urlset>` of pages or a `<sitemapindex>` of sitemaps, with the
 * `<loc>` of each. Anything else (HTML, JSON, text) is refused with a reason.
 */
export function parseSitemap(text: string): Sitemap {
  const trimmed = text.replace(/^\uFEFF/, '').trimStart();
  if (!trimmed.startsWith('<')) return { ok: false, reason: 'the sitemap is not XML' };
  let root: string | null = null;
  let inLoc = false;
  let loc: string[] = [];
  const locations: string[] = [];
  const parser = new Parser(
    {
      onopentag(name) {
        const local = name.toLowerCase().replace(/^.*:/, '');
        if (root === null) root = local;
        if (local === 'loc') {
          inLoc = true;
          loc = [];
        }
      },
      ontext(t) {
        if (inLoc) loc.push(t);
      },
      onclosetag(name) {
        if (name.toLowerCase().replace(/^.*:/, '') === 'loc' && inLoc) {
          inLoc = false;
          const value = loc.join('').trim();
          if (value) locations.push(value);
        }
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(trimmed);
  parser.end();
  if (root !== 'urlset' && root !== 'sitemapindex') return { ok: false, reason: root === null ? 'the sitemap is not XML' : `not a sitemap: the root element is <${root}>, not <urlset> or <sitemapindex>` };
  return { ok: true, kind: root, locations };
}
