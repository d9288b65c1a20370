import robotsParser from 'robots-parser';

/** How an AI agent uses what it fetches: search and user fetchers decide citations; training crawlers feed models. */
export type AgentCategory = 'search' | 'user' | 'training';

/** The AI agents whose robots.txt rules a page audit checks (their robots.txt product tokens, as their operators publish them). */
export const AI_AGENTS: readonly { agent: string; operator: string; category: AgentCategory }[] = [
  { agent: 'OAI-SearchBot', operator: 'OpenAI', category: 'search' },
  { agent: 'ChatGPT-User', operator: 'OpenAI', category: 'user' },
  { agent: 'GPTBot', operator: 'OpenAI', category: 'training' },
  { agent: 'Claude-SearchBot', operator: 'Anthropic', category: 'search' },
  { agent: 'Claude-User', operator: 'Anthropic', category: 'user' },
  { agent: 'ClaudeBot', operator: 'Anthropic', category: 'training' },
  { agent: 'PerplexityBot', operator: 'Perplexity', category: 'search' },
  { agent: 'Perplexity-User', operator: 'Perplexity', category: 'user' },
  { agent: 'Google-Extended', operator: 'Google', category: 'training' },
  { agent: 'Applebot-Extended', operator: 'Apple', category: 'training' },
  { agent: 'CCBot', operator: 'Common Crawl', category: 'training' },
  { agent: 'meta-externalagent', operator: 'Meta', category: 'training' },
];

/** Weight of an agent in the bot-access component: being found and fetched for an answer matters most. */
export const CATEGORY_WEIGHT: Readonly<Record<AgentCategory, number>> = { search: 3, user: 2, training: 1 };

/**
 * A site's robots.txt as fetched: `found` with its text, `missing` (4xx: everything is allowed,
 * RFC 9309 §2.3.1.3) or `unavailable` (5xx, a timeout, a refused connection: everything is
 * disallowed until it can be read, RFC 9309 §2.3.1.4).
 */
export type RobotsTxt =
  | { state: 'found'; text: string }
  | { state: 'missing' }
  /**
   * `unreachable`: the site itself could not be reached (its address is refused, its name does not
   * resolve, the connection failed): the pages would fail the same way, for the same reason.
   */
  | { state: 'unavailable'; reason: string; code: string; unreachable: boolean };

export interface AgentAccess {
  agent: string;
  operator: string;
  category: AgentCategory;
  allowed: boolean;
}

/** What AI bots got from this page lately, as agent analytics recorded it (its daily page rollups). */
export interface BotVisits {
  days: number;
  bots: { bot: string; visits: number; errors: number; statuses: number[] }[];
}

export interface BotAccess {
  robots: RobotsTxt['state'];
  agents: AgentAccess[];
  /** AI bots' visits of the page with their statuses (agent analytics); null when there is no such data. */
  seen?: BotVisits | null;
}

/** Robots rules of one site, parsed once and asked per URL and agent. */
export class RobotsRules {
  private readonly parsed: ReturnType<typeof robotsParser> | null;

  constructor(
    readonly robotsUrl: string,
    readonly robots: RobotsTxt,
  ) {
    this.parsed = robots.state === 'found' ? robotsParser(robotsUrl, robots.text) : null;
  }

  /** Whether `userAgent` (a product token or a full user agent) may fetch `url`. */
  allows(url: string, userAgent: string): boolean {
    if (this.robots.state === 'missing') return true;
    if (this.robots.state === 'unavailable' || !this.parsed) return false;
    // robots-parser answers undefined for a URL of another origin: not ours to judge, so not allowed.
    return this.parsed.isAllowed(url, userAgent) === true;
  }

  /** The crawl delay (seconds) the site asks of `userAgent`, if any. */
  crawlDelay(userAgent: string): number | null {
    return this.parsed?.getCrawlDelay(userAgent) ?? null;
  }

  /** Every AI agent's access to `url`. */
  botAccess(url: string): BotAccess {
    return { robots: this.robots.state, agents: AI_AGENTS.map((a) => ({ ...a, allowed: this.allows(url, a.agent) })) };
  }
}
