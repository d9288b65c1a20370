import type { INestApplicationContext } from '@nestjs/common';
import { aiReferralSource, BotClassifier, VisitStore, type BotVisitRow } from '@libs/agent-analytics';

const DAY = 86_400_000;

/**
 * A month of AI agents on the demo brand's site, so the AI-bots views have something to show.
 * Each bot comes at its own daily pace to the site's pages; the verification outcome of each visit
 * is given here as the service's verifier would reach it with the operators' published addresses
 * (the demo machine fetches none): a bot with published ranges is verified, except a share of
 * visits from elsewhere claiming its name (spoofed); a bot without any published means of checking
 * is unverifiable. Addresses are documentation ranges (RFC 5737), never real ones. People sent by
 * AI assistants are counted as referrals.
 */
const BOTS: { name: string; perDay: [number, number]; spoofed: number }[] = [
  { name: 'GPTBot', perDay: [35, 60], spoofed: 0.08 },
  { name: 'OAI-SearchBot', perDay: [12, 25], spoofed: 0 },
  { name: 'ChatGPT-User', perDay: [10, 30], spoofed: 0.03 },
  { name: 'PerplexityBot', perDay: [10, 22], spoofed: 0.12 },
  { name: 'ClaudeBot', perDay: [18, 35], spoofed: 0 },
  { name: 'Claude-User', perDay: [3, 10], spoofed: 0 },
];
const PAGES = ['/', '/pricing', '/features', '/compare/hubspot', '/compare/pipedrive', '/blog/best-crm-for-small-businesses', '/docs/getting-started', '/integrations/gmail', '/robots.txt', '/sitemap.xml'];
const REFERRERS = ['https://chatgpt.com/', 'https://www.perplexity.ai/', 'https://claude.ai/', 'https://gemini.google.com/'];

export async function seedBotVisits(
  app: INestApplicationContext,
  input: { organizationId: number; brandId: number; domain: string; lastDay: Date; days: number; rand: () => number },
): Promise<number> {
  const classifier = new BotClassifier();
  const { rand } = input;
  const last = Math.floor(input.lastDay.getTime() / DAY);
  const between = ([lo, hi]: [number, number]) => lo + Math.floor(rand() * (hi - lo + 1));
  const bots: BotVisitRow[] = [];
  const referrals: { organizationId: number; brandId: number; at: number; host: string; source: string; path: string }[] = [];
  for (let back = input.days - 1; back >= 0; back--) {
    const dayStart = (last - back) * DAY;
    for (const spec of BOTS) {
      const entry = classifier.byName(spec.name);
      if (!entry) throw new Error(`the bot catalogue has no ${spec.name}`);
      const verifiable = entry.verification.rangesUrl !== undefined || entry.verification.keyDirectory !== undefined || (entry.verification.rdnsSuffixes?.length ?? 0) > 0;
      for (let i = between(spec.perDay); i > 0; i--) {
        const spoofed = verifiable && rand() < spec.spoofed;
        const path = PAGES[Math.floor(Math.pow(rand(), 1.6) * PAGES.length)];
        bots.push({
          organizationId: input.organizationId,
          brandId: input.brandId,
          at: dayStart + Math.floor(rand() * DAY),
          method: 'GET',
          host: input.domain,
          path,
          status: rand() < 0.04 ? 404 : 200,
          ip: spoofed ? `203.0.113.${1 + Math.floor(rand() * 250)}` : `192.0.2.${1 + Math.floor(rand() * 250)}`,
          userAgent: `Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ${spec.name}/1.0; +https://example.com/bot)`,
          referer: null,
          bytes: 4_000 + Math.floor(rand() * 60_000),
          durationMs: 20 + Math.floor(rand() * 300),
          botName: entry.name,
          category: entry.category,
          verification: !verifiable ? 'unverifiable' : spoofed ? 'spoofed' : 'verified',
          verifiedBy: verifiable && !spoofed ? 'ip-range' : null,
          robotsDisallowed: false,
        });
      }
    }
    for (let i = 8 + Math.floor(rand() * 18); i > 0; i--) {
      const source = aiReferralSource(REFERRERS[Math.floor(Math.pow(rand(), 1.5) * REFERRERS.length)]);
      if (source) referrals.push({ organizationId: input.organizationId, brandId: input.brandId, at: dayStart + Math.floor(rand() * DAY), host: input.domain, source, path: PAGES[Math.floor(rand() * 6)] });
    }
  }
  await app.get(VisitStore).write(bots, referrals);
  return bots.length;
}
