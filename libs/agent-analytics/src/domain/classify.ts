import { ownString } from './visit';
import { botCatalogue, type BotEntry } from './bot-catalogue';

/**
 * Which catalogue agent a user agent names, or null. One combined expression over every token
 * (longest first, so `Claude-SearchBot` wins over a shorter token at the same place), each a whole
 * word: `GPTBotX` or `NotGPTBot` is no GPTBot. Results are cached per user-agent string (logs repeat
 * a few thousand of them), the cache bounded.
 */
export class BotClassifier {
  private readonly byToken = new Map<string, BotEntry>();
  private readonly combined: RegExp;
  private readonly cache = new Map<string, BotEntry | null>();

  constructor(
    readonly entries: readonly BotEntry[] = botCatalogue(),
    private readonly cacheSize = 10_000,
  ) {
    for (const e of entries) for (const t of e.tokens) if (!this.byToken.has(t.toLowerCase())) this.byToken.set(t.toLowerCase(), e);
    const tokens = [...this.byToken.keys()].sort((a, b) => b.length - a.length).map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    this.combined = new RegExp(`(?<![A-Za-z0-9-])(${tokens.join('|')})(?![A-Za-z0-9-])`, 'i');
  }

  classify(userAgent: string): BotEntry | null {
    const hit = this.cache.get(userAgent);
    if (hit !== undefined) return hit;
    const m = this.combined.exec(userAgent);
    const entry = m ? (this.byToken.get(m[1].toLowerCase()) ?? null) : null;
    if (this.cache.size >= this.cacheSize) this.cache.clear();
    this.cache.set(ownString(userAgent), entry);
    return entry;
  }

  byName(name: string): BotEntry | undefined {
    const n = name.toLowerCase();
    return this.entries.find((e) => e.name.toLowerCase() === n || e.id === n);
  }
}

/** AI assistants whose answers send people to sites (DESIGN §13.2), by the referer's host. */
export const AI_REFERRERS: readonly { source: string; hosts: string[] }[] = [
  { source: 'chatgpt', hosts: ['chatgpt.com', 'chat.openai.com', 'openai.com'] },
  { source: 'perplexity', hosts: ['perplexity.ai', 'www.perplexity.ai', 'perplexity.com'] },
  { source: 'claude', hosts: ['claude.ai'] },
  { source: 'gemini', hosts: ['gemini.google.com', 'bard.google.com'] },
  { source: 'copilot', hosts: ['copilot.microsoft.com', 'copilot.cloud.microsoft'] },
  { source: 'meta-ai', hosts: ['meta.ai', 'www.meta.ai'] },
  { source: 'mistral', hosts: ['chat.mistral.ai'] },
  { source: 'deepseek', hosts: ['chat.deepseek.com'] },
  { source: 'you', hosts: ['you.com'] },
  { source: 'phind', hosts: ['phind.com', 'www.phind.com'] },
  { source: 'grok', hosts: ['grok.com', 'x.ai'] },
  { source: 'duckassist', hosts: ['duck.ai'] },
];
const REFERRER_BY_HOST = new Map(AI_REFERRERS.flatMap((r) => r.hosts.map((h) => [h, r.source] as const)));

/** The AI assistant a referer URL comes from (`chatgpt`, ...), or null; `utm_source=chatgpt.com` counts too. */
export function aiReferralSource(referer: string | null | undefined): string | null {
  if (!referer || referer === '-') return null;
  const m = /^[a-z][a-z0-9+.-]*:\/\/([^/:?#]+)/i.exec(referer);
  if (m) {
    const host = m[1].toLowerCase();
    const source = REFERRER_BY_HOST.get(host) ?? REFERRER_BY_HOST.get(host.replace(/^www\./, ''));
    if (source) return source;
  }
  return null;
}

/** An AI assistant named by a landing URL's `utm_source` (ChatGPT adds `utm_source=chatgpt.com`), or null. */
export function utmAiSource(path: string): string | null {
  const q = path.indexOf('?');
  if (q < 0) return null;
  const m = /(?:^|&)utm_source=([^&#]*)/.exec(path.slice(q + 1));
  if (!m) return null;
  let v: string;
  try {
    v = decodeURIComponent(m[1]).toLowerCase();
  } catch {
    return null;
  }
  return REFERRER_BY_HOST.get(v) ?? REFERRER_BY_HOST.get(v.replace(/^www\./, '')) ?? null;
}
