/** Every scope an API key or OAuth client may hold (the contract's and DESIGN §5's). */
export const ALL_SCOPES = [
  'read:opportunities',
  'write:opportunities',
  'read:outcomes',
  'read:citation-sources',
  'read:agent-analytics',
  'write:agent-analytics',
  'read:metrics',
  'write:metrics',
  'read:webhooks',
  'write:webhooks',
  'read:usage',
  'read:brands',
  'write:brands',
  'read:analysis',
  'write:audits',
  'write:budgets',
  'read:visibility',
  'read:citations',
  'read:prompts',
  'read:sentiment',
  'read:changes',
] as const;

export type Scope = (typeof ALL_SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (ALL_SCOPES as readonly string[]).includes(value);
}

/** Parses "a,b" or "all" (CLI) or "a b" (OAuth) into known scopes; throws on an unknown one. */
export function parseScopes(text: string, separator: RegExp = /[,\s]+/): Scope[] {
  if (text.trim() === 'all') return [...ALL_SCOPES];
  const items = [...new Set(text.split(separator).map((s) => s.trim()).filter(Boolean))];
  const unknown = items.filter((s) => !isScope(s));
  if (unknown.length) throw new RangeError(`unknown scope(s): ${unknown.join(', ')}; known: ${ALL_SCOPES.join(', ')}`);
  return items as Scope[];
}
