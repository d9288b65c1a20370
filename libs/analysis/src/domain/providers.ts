/** The AI engines the service asks (DESIGN §13.1), by the names the API uses. */
export const PROVIDERS = ['chatgpt', 'claude', 'gemini', 'perplexity'] as const;
export type Provider = (typeof PROVIDERS)[number];

export function isProvider(value: unknown): value is Provider {
  return typeof value === 'string' && (PROVIDERS as readonly string[]).includes(value);
}
