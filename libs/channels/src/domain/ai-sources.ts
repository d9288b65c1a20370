/**
 * Hosts of AI assistants whose visitors arrive as referrals (DESIGN §13.2): a session whose source
 * (GA4 `sessionSource`, a referrer host) is one of these, or a subdomain of one, is an AI session.
 */
export const AI_ASSISTANT_HOSTS = [
  'chatgpt.com',
  'chat.openai.com',
  'openai.com',
  'perplexity.ai',
  'claude.ai',
  'gemini.google.com',
  'bard.google.com',
  'copilot.microsoft.com',
  'you.com',
  'phind.com',
  'poe.com',
  'meta.ai',
  'chat.mistral.ai',
  'chat.deepseek.com',
  'grok.com',
] as const;

/** Whether a traffic source (a host, `host/path`, a URL, or GA4's source name) is an AI assistant. */
export function isAiAssistantSource(source: string | null | undefined): boolean {
  if (!source) return false;
  let host = source.trim().toLowerCase();
  host = host.replace(/^[a-z][a-z0-9+.-]*:\/\//, '').replace(/[/?#:].*$/, '').replace(/^www\./, '');
  return AI_ASSISTANT_HOSTS.some((h) => host === h || host.endsWith(`.${h}`));
}
