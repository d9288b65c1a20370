import { botCatalogue, CURATED_BOTS } from './bot-catalogue';
import { aiReferralSource, BotClassifier, utmAiSource } from './classify';

const classifier = new BotClassifier();

describe('the bot catalogue', () => {
  it('names the agents of the major operators, each with a category, tokens and sources', () => {
    const operators = new Set(botCatalogue().map((e) => e.operator));
    for (const o of ['OpenAI', 'Anthropic', 'Perplexity', 'Google', 'Microsoft', 'Apple', 'Amazon', 'Meta', 'Common Crawl', 'ByteDance', 'DuckDuckGo', 'Mistral AI', 'You.com', 'Cohere']) expect(operators).toContain(o);
    for (const e of botCatalogue()) {
      expect(['training', 'search', 'user-triggered', 'agent']).toContain(e.category);
      expect(e.tokens.length).toBeGreaterThan(0);
      expect(e.sources.length).toBeGreaterThan(0);
    }
    // The package's ai-crawler entries fill in what the curated list lacks.
    expect(botCatalogue().length).toBeGreaterThan(CURATED_BOTS.length + 10);
    expect(new Set(botCatalogue().map((e) => e.id)).size).toBe(botCatalogue().length);
  });

  it.each(botCatalogue().map((e) => [e.name, e] as const))('recognises %s from a user agent carrying its token', (_name, entry) => {
    for (const token of entry.tokens) {
      expect(classifier.classify(`Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ${token}/1.0; +https://example.com/bot)`)?.id).toBe(entry.id);
      expect(classifier.classify(token)?.id).toBe(entry.id);
    }
  });

  it('recognises real user agents of the major agents', () => {
    const cases: [string, string][] = [
      ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)', 'gptbot'],
      ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot', 'chatgpt-user'],
      ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot', 'oai-searchbot'],
      ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)', 'claudebot'],
      ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-SearchBot/1.0; +https://www.anthropic.com)', 'claude-searchbot'],
      ['Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.69 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'googlebot'],
      ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36', 'bingbot'],
      ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)', 'applebot'],
      ['meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)', 'meta-externalagent'],
      ['CCBot/2.0 (https://commoncrawl.org/faq/)', 'ccbot'],
      ['Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)', 'bytespider'],
      ['DuckAssistBot/1.2; (+http://duckduckgo.com/duckassistbot.html)', 'duckassistbot'],
      ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; MistralAI-User/1.0; +https://docs.mistral.ai/robots)', 'mistralai-user'],
    ];
    for (const [ua, id] of cases) expect(classifier.classify(ua)?.id).toBe(id);
  });

  it('does not take lookalikes for agents', () => {
    for (const ua of [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
      'Mozilla/5.0 (compatible; GPTBotX/1.0)',
      'NotGPTBot/1.0',
      'Mozilla/5.0 (compatible; MyGPTBot-Clone/1.0)',
      'Mozilla/5.0 (compatible; ClaudeBotnet)',
      'Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)',
      'Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)',
      '',
    ])
      expect(classifier.classify(ua)).toBeNull();
  });
});

describe('AI referrals', () => {
  it('knows the assistants by the referer host and by utm_source', () => {
    expect(aiReferralSource('https://chatgpt.com/')).toBe('chatgpt');
    expect(aiReferralSource('https://www.perplexity.ai/search/abc')).toBe('perplexity');
    expect(aiReferralSource('https://gemini.google.com/app')).toBe('gemini');
    expect(aiReferralSource('https://copilot.microsoft.com/chats/1')).toBe('copilot');
    expect(aiReferralSource('https://claude.ai/chat/1')).toBe('claude');
    expect(aiReferralSource('https://www.google.com/')).toBeNull();
    expect(aiReferralSource('https://chatgpt.com.evil.example/')).toBeNull();
    expect(aiReferralSource('-')).toBeNull();
    expect(utmAiSource('/pricing?utm_source=chatgpt.com')).toBe('chatgpt');
    expect(utmAiSource('/pricing?utm_source=newsletter')).toBeNull();
  });
});
