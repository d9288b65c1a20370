/** Bounds of a subscription's custom headers. */
export const MAX_HEADERS = 20;
export const MAX_HEADER_NAME = 64;
export const MAX_HEADER_VALUE = 1024;

/** Headers the service sets itself: a custom header can never replace or add to them. */
const RESERVED = new Set([
  'content-type', 'content-length', 'content-encoding', 'transfer-encoding', 'host', 'connection', 'keep-alive', 'upgrade',
  'te', 'trailer', 'expect', 'user-agent', 'cookie', 'proxy-authorization', 'proxy-connection',
]);
const TOKEN = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;
// Visible ASCII, space and tab; no CR, LF or NUL (no header injection).
const VALUE = /^[\t\x20-\x7e]*$/;

export function isReservedHeader(name: string): boolean {
  const n = name.toLowerCase();
  return RESERVED.has(n) || n.startsWith('webhook-') || n.startsWith('proxy-') || n.startsWith('sec-');
}

/** The problems of a custom headers map (empty when it is acceptable). */
export function headerProblems(value: unknown): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return ['headers must be an object of header names to string values'];
  const entries = Object.entries(value as Record<string, unknown>);
  const problems: string[] = [];
  if (entries.length > MAX_HEADERS) problems.push(`headers may hold at most ${MAX_HEADERS} headers`);
  const seen = new Set<string>();
  for (const [name, v] of entries.slice(0, MAX_HEADERS + 1)) {
    const label = JSON.stringify(name.slice(0, MAX_HEADER_NAME));
    if (!TOKEN.test(name) || name.length > MAX_HEADER_NAME) problems.push(`header name ${label} must be 1-${MAX_HEADER_NAME} token characters`);
    else if (isReservedHeader(name)) problems.push(`header ${label} is set by the service (signature and content headers cannot be replaced)`);
    else if (seen.has(name.toLowerCase())) problems.push(`header ${label} is given twice`);
    seen.add(name.toLowerCase());
    if (typeof v !== 'string') problems.push(`header ${label} must have a string value`);
    else if (v.length > MAX_HEADER_VALUE || !VALUE.test(v)) problems.push(`header ${label} must be at most ${MAX_HEADER_VALUE} visible ASCII characters`);
  }
  return problems;
}
