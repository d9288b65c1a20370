import crawlerUserAgents from 'crawler-user-agents';

/** What an AI agent does on a site (DESIGN §13.2). */
export type BotCategory = 'training' | 'search' | 'user-triggered' | 'agent';
export const BOT_CATEGORIES: readonly BotCategory[] = ['training', 'search', 'user-triggered', 'agent'];

/** How a claim to be this agent can be checked. */
export interface BotVerification {
  /** The operator's published IP ranges (JSON, `prefixes: [{ipv4Prefix | ipv6Prefix}]`). */
  rangesUrl?: string;
  /** Forward-confirmed reverse DNS: the host names the operator documents for its crawlers. */
  rdnsSuffixes?: string[];
  /** The agent signs its requests (Web Bot Auth, RFC 9421) with the Ed25519 keys of this directory. */
  keyDirectory?: string;
}

/** One AI agent of the catalogue, every fact with where it comes from. */
export interface BotEntry {
  /** Stable id, the catalogue key (`gptbot`). */
  id: string;
  /** The name the agent calls itself (`GPTBot`): the API's `botName`. */
  name: string;
  operator: string;
  product: string;
  category: BotCategory;
  /** User-agent tokens, matched case-insensitively as whole words. */
  tokens: string[];
  verification: BotVerification;
  /** Where the facts come from: the operator's documentation, or the base package. */
  sources: string[];
}

const OPENAI_BOTS = 'https://platform.openai.com/docs/bots';
const PERPLEXITY_BOTS = 'https://docs.perplexity.ai/guides/bots';
const GOOGLE_CRAWLERS = 'https://developers.google.com/search/docs/crawling-indexing/google-common-crawlers';
const GOOGLE_FETCHERS = 'https://developers.google.com/search/docs/crawling-indexing/google-user-triggered-fetchers';
const GOOGLE_VERIFY = 'https://developers.google.com/search/docs/crawling-indexing/verifying-googlebot';
const GOOGLE_RANGES = 'https://developers.google.com/static/search/apis/ipranges';
const ANTHROPIC_BOTS = 'https://support.anthropic.com/en/articles/8896518-does-anthropic-crawl-data-from-the-web-and-how-can-site-owners-block-the-crawler';
const CUA = 'npm:crawler-user-agents';
const CHATGPT_KEYS = 'https://chatgpt.com/.well-known/http-message-signatures-directory';

/**
 * The curated part of the catalogue: the agents the major operators document, with their
 * operator, product, category, tokens and how to verify them. The rest comes from the
 * `crawler-user-agents` package's `ai-crawler` entries (see `botCatalogue`).
 */
export const CURATED_BOTS: readonly BotEntry[] = [
  { id: 'gptbot', name: 'GPTBot', operator: 'OpenAI', product: 'model training', category: 'training', tokens: ['GPTBot'], verification: { rangesUrl: 'https://openai.com/gptbot.json' }, sources: [OPENAI_BOTS] },
  { id: 'oai-searchbot', name: 'OAI-SearchBot', operator: 'OpenAI', product: 'ChatGPT search', category: 'search', tokens: ['OAI-SearchBot'], verification: { rangesUrl: 'https://openai.com/searchbot.json' }, sources: [OPENAI_BOTS] },
  { id: 'chatgpt-user', name: 'ChatGPT-User', operator: 'OpenAI', product: 'ChatGPT (fetches for a user)', category: 'user-triggered', tokens: ['ChatGPT-User'], verification: { rangesUrl: 'https://openai.com/chatgpt-user.json', keyDirectory: CHATGPT_KEYS }, sources: [OPENAI_BOTS, 'https://help.openai.com/en/articles/11845367-chatgpt-agent-allowlisting'] },
  { id: 'chatgpt-agent', name: 'ChatGPT agent', operator: 'OpenAI', product: 'ChatGPT agent', category: 'agent', tokens: ['ChatGPT-Agent'], verification: { keyDirectory: CHATGPT_KEYS }, sources: ['https://help.openai.com/en/articles/11845367-chatgpt-agent-allowlisting'] },
  { id: 'claudebot', name: 'ClaudeBot', operator: 'Anthropic', product: 'model training', category: 'training', tokens: ['ClaudeBot'], verification: {}, sources: [ANTHROPIC_BOTS] },
  { id: 'claude-searchbot', name: 'Claude-SearchBot', operator: 'Anthropic', product: 'Claude search', category: 'search', tokens: ['Claude-SearchBot'], verification: {}, sources: [ANTHROPIC_BOTS] },
  { id: 'claude-user', name: 'Claude-User', operator: 'Anthropic', product: 'Claude (fetches for a user)', category: 'user-triggered', tokens: ['Claude-User'], verification: {}, sources: [ANTHROPIC_BOTS] },
  { id: 'claude-web', name: 'Claude-Web', operator: 'Anthropic', product: 'Claude (legacy fetcher)', category: 'user-triggered', tokens: ['Claude-Web'], verification: {}, sources: [CUA] },
  { id: 'anthropic-ai', name: 'anthropic-ai', operator: 'Anthropic', product: 'model training (legacy token)', category: 'training', tokens: ['anthropic-ai'], verification: {}, sources: [CUA] },
  { id: 'perplexitybot', name: 'PerplexityBot', operator: 'Perplexity', product: 'Perplexity search index', category: 'search', tokens: ['PerplexityBot'], verification: { rangesUrl: 'https://www.perplexity.com/perplexitybot.json' }, sources: [PERPLEXITY_BOTS] },
  { id: 'perplexity-user', name: 'Perplexity-User', operator: 'Perplexity', product: 'Perplexity (fetches for a user)', category: 'user-triggered', tokens: ['Perplexity-User', 'PerplexityUser'], verification: { rangesUrl: 'https://www.perplexity.com/perplexity-user.json' }, sources: [PERPLEXITY_BOTS] },
  { id: 'googlebot', name: 'Googlebot', operator: 'Google', product: 'Google Search, AI Overviews and AI Mode', category: 'search', tokens: ['Googlebot'], verification: { rangesUrl: `${GOOGLE_RANGES}/googlebot.json`, rdnsSuffixes: ['googlebot.com', 'google.com', 'googleusercontent.com'] }, sources: [GOOGLE_CRAWLERS, GOOGLE_VERIFY] },
  { id: 'google-cloudvertexbot', name: 'Google-CloudVertexBot', operator: 'Google', product: 'Vertex AI Agents', category: 'agent', tokens: ['Google-CloudVertexBot'], verification: { rangesUrl: `${GOOGLE_RANGES}/special-crawlers.json`, rdnsSuffixes: ['google.com', 'googleusercontent.com'] }, sources: [GOOGLE_CRAWLERS] },
  { id: 'googleother', name: 'GoogleOther', operator: 'Google', product: 'Google research and development crawls', category: 'training', tokens: ['GoogleOther'], verification: { rangesUrl: `${GOOGLE_RANGES}/googlebot.json`, rdnsSuffixes: ['googlebot.com', 'google.com'] }, sources: [GOOGLE_CRAWLERS] },
  { id: 'gemini-deep-research', name: 'Gemini-Deep-Research', operator: 'Google', product: 'Gemini Deep Research', category: 'user-triggered', tokens: ['Gemini-Deep-Research'], verification: { rangesUrl: `${GOOGLE_RANGES}/user-triggered-fetchers-google.json`, rdnsSuffixes: ['google.com', 'googleusercontent.com'] }, sources: [GOOGLE_FETCHERS] },
  { id: 'google-notebooklm', name: 'Google-NotebookLM', operator: 'Google', product: 'NotebookLM', category: 'user-triggered', tokens: ['Google-NotebookLM'], verification: { rangesUrl: `${GOOGLE_RANGES}/user-triggered-fetchers-google.json`, rdnsSuffixes: ['google.com', 'googleusercontent.com'] }, sources: [GOOGLE_FETCHERS] },
  { id: 'bingbot', name: 'bingbot', operator: 'Microsoft', product: 'Bing search and Copilot', category: 'search', tokens: ['bingbot'], verification: { rangesUrl: 'https://www.bing.com/toolbox/bingbot.json', rdnsSuffixes: ['search.msn.com'] }, sources: ['https://www.bing.com/webmasters/help/which-crawlers-does-bing-use-8c184ec0'] },
  { id: 'azureai-searchbot', name: 'AzureAI-SearchBot', operator: 'Microsoft', product: 'Azure AI Search', category: 'search', tokens: ['AzureAI-SearchBot'], verification: {}, sources: [CUA] },
  { id: 'applebot', name: 'Applebot', operator: 'Apple', product: 'Siri and Spotlight search', category: 'search', tokens: ['Applebot'], verification: { rangesUrl: 'https://search.developer.apple.com/applebot.json', rdnsSuffixes: ['applebot.apple.com'] }, sources: ['https://support.apple.com/en-us/119829'] },
  { id: 'amazonbot', name: 'Amazonbot', operator: 'Amazon', product: 'Alexa and model training', category: 'training', tokens: ['Amazonbot'], verification: { rdnsSuffixes: ['crawl.amazonbot.amazon'] }, sources: ['https://developer.amazon.com/amazonbot'] },
  { id: 'amzn-searchbot', name: 'Amzn-SearchBot', operator: 'Amazon', product: 'Alexa and Rufus search', category: 'search', tokens: ['Amzn-SearchBot'], verification: { rdnsSuffixes: ['crawl.amazonbot.amazon'] }, sources: ['https://developer.amazon.com/amazonbot'] },
  { id: 'amzn-user', name: 'Amzn-User', operator: 'Amazon', product: 'Alexa (fetches for a user)', category: 'user-triggered', tokens: ['Amzn-User'], verification: {}, sources: ['https://developer.amazon.com/amazonbot'] },
  { id: 'meta-externalagent', name: 'meta-externalagent', operator: 'Meta', product: 'Meta AI model training', category: 'training', tokens: ['meta-externalagent'], verification: {}, sources: ['https://developers.facebook.com/docs/sharing/webmasters/web-crawlers'] },
  { id: 'meta-externalfetcher', name: 'meta-externalfetcher', operator: 'Meta', product: 'Meta AI (fetches for a user)', category: 'user-triggered', tokens: ['meta-externalfetcher'], verification: {}, sources: ['https://developers.facebook.com/docs/sharing/webmasters/web-crawlers'] },
  { id: 'facebookbot', name: 'FacebookBot', operator: 'Meta', product: 'speech recognition training', category: 'training', tokens: ['FacebookBot'], verification: {}, sources: [CUA] },
  { id: 'ccbot', name: 'CCBot', operator: 'Common Crawl', product: 'open web corpus (used for model training)', category: 'training', tokens: ['CCBot'], verification: { rdnsSuffixes: ['crawl.commoncrawl.org'] }, sources: ['https://commoncrawl.org/ccbot'] },
  { id: 'bytespider', name: 'Bytespider', operator: 'ByteDance', product: 'model training (Doubao)', category: 'training', tokens: ['Bytespider'], verification: {}, sources: [CUA] },
  { id: 'tiktokspider', name: 'TikTokSpider', operator: 'ByteDance', product: 'TikTok search', category: 'search', tokens: ['TikTokSpider'], verification: {}, sources: [CUA] },
  { id: 'duckassistbot', name: 'DuckAssistBot', operator: 'DuckDuckGo', product: 'DuckAssist answers', category: 'user-triggered', tokens: ['DuckAssistBot'], verification: {}, sources: ['https://duckduckgo.com/duckduckgo-help-pages/results/duckassistbot'] },
  { id: 'mistralai-user', name: 'MistralAI-User', operator: 'Mistral AI', product: 'Le Chat (fetches for a user)', category: 'user-triggered', tokens: ['MistralAI-User'], verification: {}, sources: ['https://docs.mistral.ai/robots'] },
  { id: 'youbot', name: 'YouBot', operator: 'You.com', product: 'You.com search', category: 'search', tokens: ['YouBot'], verification: {}, sources: ['https://about.you.com/youbot/'] },
  { id: 'cohere-ai', name: 'cohere-ai', operator: 'Cohere', product: 'Cohere chat (fetches for a user)', category: 'user-triggered', tokens: ['cohere-ai'], verification: {}, sources: [CUA] },
  { id: 'cohere-training-data-crawler', name: 'cohere-training-data-crawler', operator: 'Cohere', product: 'model training', category: 'training', tokens: ['cohere-training-data-crawler'], verification: {}, sources: [CUA] },
  { id: 'ai2bot', name: 'AI2Bot', operator: 'Allen Institute for AI', product: 'open model training', category: 'training', tokens: ['AI2Bot'], verification: {}, sources: [CUA] },
  { id: 'deepseekbot', name: 'DeepSeekBot', operator: 'DeepSeek', product: 'DeepSeek search', category: 'search', tokens: ['DeepSeekBot'], verification: {}, sources: [CUA] },
  { id: 'petalbot', name: 'PetalBot', operator: 'Huawei', product: 'Petal search and Celia assistant', category: 'search', tokens: ['PetalBot'], verification: { rdnsSuffixes: ['petalsearch.com'] }, sources: ['https://webmaster.petalsearch.com/site/petalbot'] },
  { id: 'kagi-fetcher', name: 'kagi-fetcher', operator: 'Kagi', product: 'Kagi Assistant', category: 'user-triggered', tokens: ['kagi-fetcher'], verification: {}, sources: [CUA] },
  { id: 'phindbot', name: 'PhindBot', operator: 'Phind', product: 'Phind answers', category: 'search', tokens: ['PhindBot'], verification: {}, sources: [CUA] },
  { id: 'firecrawlagent', name: 'FirecrawlAgent', operator: 'Firecrawl', product: 'scraping for LLM applications', category: 'agent', tokens: ['FirecrawlAgent'], verification: {}, sources: [CUA] },
  { id: 'diffbot', name: 'Diffbot', operator: 'Diffbot', product: 'knowledge graph', category: 'training', tokens: ['Diffbot'], verification: {}, sources: ['https://docs.diffbot.com/docs/getting-started-with-crawl'] },
  { id: 'timpibot', name: 'Timpibot', operator: 'Timpi', product: 'decentralised search index', category: 'training', tokens: ['Timpibot'], verification: {}, sources: ['https://timpi.io'] },
];

interface CrawlerUserAgent {
  pattern: string;
  url?: string;
  description?: string;
  instances?: string[];
  tags?: string[];
}

function inferredCategory(c: CrawlerUserAgent): BotCategory {
  const text = `${c.pattern} ${c.description ?? ''}`.toLowerCase();
  if (/user|on behalf|assistant/.test(text)) return 'user-triggered';
  if (/search|answer|citation/.test(text)) return 'search';
  if (/agent|devin|automation/.test(text)) return 'agent';
  return 'training';
}

function operatorOf(c: CrawlerUserAgent): string {
  if (!c.url) return 'unknown';
  try {
    return new URL(c.url).hostname.replace(/^www\./, '');
  } catch {
    return 'unknown';
  }
}

/** A pattern of the package that is one plain token (`PerplexityBot\/`, `newsai\/`), or null. */
function plainToken(pattern: string): string | null {
  const t = pattern.replace(/\\\/$/, '').replace(/\\(.)/g, '$1');
  return /^[A-Za-z0-9][A-Za-z0-9 ._-]*$/.test(t) ? t : null;
}

let cached: BotEntry[] | null = null;

/**
 * The whole catalogue: the curated entries, then every `ai-crawler` entry of the
 * crawler-user-agents package (monperrus/crawler-user-agents) that none of them covers (its
 * operator is the documentation URL's host, its category inferred from the description; both
 * marked by the package as their source). An entry whose pattern is not one plain token is left
 * out (the catalogue matches tokens, not regular expressions).
 */
export function botCatalogue(): readonly BotEntry[] {
  if (cached) return cached;
  const entries = [...CURATED_BOTS];
  const known = new Set(entries.flatMap((e) => e.tokens.map((t) => t.toLowerCase())));
  for (const c of crawlerUserAgents as CrawlerUserAgent[]) {
    if (!c.tags?.includes('ai-crawler')) continue;
    const token = plainToken(c.pattern);
    if (!token || known.has(token.toLowerCase())) continue;
    // Covered when a curated token already recognises the package's own example.
    if (c.instances?.some((ua) => entries.some((e) => e.tokens.some((t) => tokenRegex(t).test(ua))))) continue;
    known.add(token.toLowerCase());
    const id = token.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
    entries.push({ id, name: token, operator: operatorOf(c), product: c.description ?? 'AI crawler', category: inferredCategory(c), tokens: [token], verification: {}, sources: [CUA, ...(c.url ? [c.url] : [])] });
  }
  cached = entries;
  return entries;
}

/** A token as a whole word of a user agent: not preceded or followed by a letter, digit or `-`. */
export function tokenRegex(token: string): RegExp {
  return new RegExp(`(?<![A-Za-z0-9-])${token.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9-])`, 'i');
}
