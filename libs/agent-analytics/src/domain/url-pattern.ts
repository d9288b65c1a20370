/**
 * A URL pattern of `visits?url=`: a path (`/blog/*`, `/pricing`) or a URL (`https://acme.example/blog/*`,
 * `https://*.acme.example/*`), where `*` stands for any characters and everything else is literal;
 * matched against the visited path with its query (and, for a URL, the host). As SQL LIKE
 * patterns, or a problem.
 */
export function parseUrlPattern(text: string): { host: string | null; path: string } | { problem: string } {
  if (text.length === 0 || text.length > 2048) return { problem: 'url must be 1 to 2048 characters' };
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f]/.test(text)) return { problem: 'url must not hold spaces or control characters' };
  let host: string | null = null;
  let path = text;
  const m = /^https?:\/\/([^/]*)(\/.*)?$/i.exec(text);
  if (m) {
    if (!/^[A-Za-z0-9*.-]+(:\d{1,5})?$/.test(m[1]) || m[1].replace(/\*/g, '') === '' && m[1] !== '*') return { problem: 'url must name a host (letters, digits, dots, dashes and *)' };
    host = like(m[1].toLowerCase().replace(/:\d+$/, ''));
    path = m[2] ?? '/*';
  } else if (/^[a-z][a-z0-9+.-]*:/i.test(text)) return { problem: 'url must be a path starting with / (or *), or an http(s) URL' };
  if (!path.startsWith('/') && !path.startsWith('*')) return { problem: 'url must be a path starting with / (or *), or an http(s) URL' };
  return { host, path: like(path) };
}

/** `*` → `%`, with LIKE's own `%`, `_` and `\` taken literally. */
function like(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/\*+/g, '%');
}
