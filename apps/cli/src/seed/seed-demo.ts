import { NestFactory } from '@nestjs/core';
import { CommandBus } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import type { AppConfig } from '@libs/config';
import { ALL_SCOPES, ApiKeysRepository, type Scope } from '@libs/auth';
import { TenancyRepository } from '@libs/tenancy';
import { DetectOpportunityCommand, OpportunityRepository, SEVERITIES, TYPES, type OpportunityType, type Severity, type Status } from '@libs/opportunities';
import { AnswerHistorySeeder, PROVIDERS, TrackedPromptsRepository } from '@libs/analysis';
import { SeedModule } from './seed.module';
import { LOOP_MIN_HISTORY_DAYS, loopStandingShift, seedLoop, type LoopSeeded } from './demo-loop';
import { seedBotVisits } from './demo-bots';

export interface DemoSeed {
  organization: { id: number; name: string; tier: string };
  brands: { id: number; name: string; domain: string; competitors: string[] }[];
  keys: { id: number; key: string; scopes: string[]; name: string }[];
  opportunities: number;
  resolvedWithOutcome: number;
  /** Tracked prompts a brand, days of daily runs seeded, and the answers they hold. */
  prompts: number;
  historyDays: number;
  answers: number;
  /** AI-agent visits to the first brand's site over the last 30 days (the AI-bots views). */
  botVisits: number;
  /** The closed loop in the history: the detector-opened stories and where the loop left them (null with under LOOP_MIN_HISTORY_DAYS days of history). */
  loop: LoopSeeded | null;
}

/** Twenty questions a buyer asks an AI engine, per demo brand. */
const DEMO_PROMPTS: Record<string, string[]> = {
  'Acme CRM': [
    'best CRM for small businesses', 'best CRM for a 10-person agency', 'Acme CRM vs HubSpot', 'Acme CRM vs Pipedrive', 'is Acme CRM worth it',
    'cheapest CRM with email automation', 'best CRM for real estate agents', 'HubSpot alternatives', 'Pipedrive alternatives', 'best CRM for startups',
    'CRM with the best mobile app', 'easiest CRM to set up', 'best CRM for sales pipelines', 'Zoho CRM vs Acme CRM', 'best free CRM',
    'CRM with built-in invoicing', 'best CRM for consultants', 'which CRM integrates with Gmail', 'best CRM for B2B sales teams', 'top rated CRM software 2026',
  ],
  'Bolt Bikes': [
    'best electric bike for commuting', 'best e-bike under $2000', 'Bolt Bikes vs Trek', 'Bolt Bikes vs Specialized', 'are Bolt Bikes good',
    'best folding e-bike', 'best e-bike for hills', 'Canyon alternatives', 'best cargo e-bike for families', 'lightest electric bike',
    'best e-bike brand for reliability', 'e-bike with the longest range', 'best gravel e-bike', 'Trek vs Canyon e-bikes', 'best e-bike for beginners',
    'best city bike brands', 'where to buy an e-bike online', 'best mountain e-bike 2026', 'most comfortable e-bike', 'e-bike with the best warranty',
  ],
};
/** Days of daily runs `seed demo` writes, up to yesterday. */
export const DEMO_HISTORY_DAYS = 90;

/** A deterministic pseudo-random sequence, so every demo database looks the same. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TITLES: Record<OpportunityType, (brand: string, rival: string, engine: string) => string> = {
  misinformation: (b, _r, e) => `${e} quotes outdated pricing for ${b}`,
  competitor_gap: (b, r, e) => `${r} recommended over ${b} on ${e} for "best tools" prompts`,
  missing_citation: (b, _r, e) => `${e} answers about ${b} cite no ${b} page`,
  sentiment_drop: (b, _r, e) => `Tone about ${b} turned negative on ${e}`,
  stability_alert: (b, _r, e) => `${b}'s ranking on ${e} swings between runs`,
  sov_drop: (b, _r, e) => `${b} share of voice fell on ${e}`,
  dropped_from_top3: (b, _r, e) => `${b} dropped out of ${e}'s top three`,
  readiness_gap: (b) => `${b} product pages lack answer-ready summaries`,
  schema_gap: (b) => `${b} pricing page has no Product schema`,
  seo_task: (b) => `${b} comparison page missing from the sitemap`,
  crawl_block: (b) => `GPTBot blocked by ${b}'s robots.txt`,
  hallucination_cluster: (b, _r, e) => `${e} invents a ${b} free tier`,
};
const ENGINES = ['ChatGPT', 'Claude', 'Perplexity', 'Gemini'];
const OWNERS = ['ana@demo.agency', 'bruno@demo.agency', 'chloe@demo.agency', 'dev@demo.agency'];
/** Believable end states and the paths that reach them. */
const PATHS: { weight: number; path: Status[] }[] = [
  { weight: 18, path: [] },
  { weight: 14, path: ['triaged'] },
  { weight: 12, path: ['triaged', 'assigned'] },
  { weight: 12, path: ['assigned', 'in_progress'] },
  { weight: 6, path: ['assigned', 'in_progress', 'fix_deployed'] },
  { weight: 6, path: ['assigned', 'in_progress', 'fix_deployed', 'verifying'] },
  { weight: 18, path: ['triaged', 'assigned', 'in_progress', 'fix_deployed', 'verifying', 'resolved'] },
  { weight: 4, path: ['assigned', 'in_progress', 'fix_deployed', 'verifying', 'regressed'] },
  { weight: 3, path: ['assigned', 'in_progress', 'fix_deployed', 'verifying', 'regressed', 'in_progress'] },
  { weight: 7, path: ['dismissed'] },
  { weight: 2, path: ['triaged', 'dismissed'] },
];

function pick<T>(rand: () => number, items: readonly T[]): T {
  return items[Math.floor(rand() * items.length)];
}

function pickPath(rand: () => number): Status[] {
  const total = PATHS.reduce((a, p) => a + p.weight, 0);
  let r = rand() * total;
  for (const p of PATHS) if ((r -= p.weight) < 0) return p.path;
  return [];
}

/**
 * Seeds a realistic demo organisation: two brands with competitors, 20 tracked prompts each with
 * 90 days of daily analysis runs on four providers (the recorded source), a few hundred opportunities
 * of every type, severity and state with histories spread over four months (owners, reasons,
 * verifications, outcomes), and two API keys. Everything goes through the domain's commands.
 * The first brand's history also tells the closed loop (demo-loop.ts): opportunities the detectors
 * open, verify and resolve (with an outcome in money from an import channel), and one regressed.
 */
export async function seedDemo(config: AppConfig, options: { opportunities?: number; historyDays?: number } = {}): Promise<DemoSeed> {
  const app = await NestFactory.createApplicationContext(SeedModule.forRoot(config), { logger: false });
  try {
    const tenancy = app.get(TenancyRepository);
    const keys = app.get(ApiKeysRepository);
    const commands = app.get(CommandBus);
    const repository = app.get(OpportunityRepository);
    const rand = random(42);

    const org = await tenancy.createOrganization('Demo Agency', 'professional');
    const client = await tenancy.createClient(org.id, 'Northwind Holdings');
    const brandSpecs = [
      { name: 'Acme CRM', domain: 'acmecrm.com', aliases: ['Acme'], competitors: [['HubSpot', 'hubspot.com'], ['Pipedrive', 'pipedrive.com'], ['Zoho CRM', 'zoho.com']] },
      { name: 'Bolt Bikes', domain: 'boltbikes.com', aliases: ['Bolt'], competitors: [['Trek', 'trekbikes.com'], ['Specialized', 'specialized.com'], ['Canyon', 'canyon.com']] },
    ];
    const brands: Awaited<ReturnType<TenancyRepository['createBrand']>>[] = [];
    for (const b of brandSpecs) {
      brands.push(
        await tenancy.createBrand({
          organizationId: org.id,
          clientId: client.id,
          name: b.name,
          domain: b.domain,
          aliases: b.aliases,
          competitors: b.competitors.map(([name, domain]) => ({ name, domain })),
        }),
      );
    }
    const full = await keys.create({ organizationId: org.id, scopes: [...ALL_SCOPES], name: 'demo: full access' });
    const readOnly = await keys.create({ organizationId: org.id, scopes: ALL_SCOPES.filter((s) => s.startsWith('read:')) as Scope[], name: 'demo: read only' });

    // Tracked prompts and 90 days of daily runs (four providers, the recorded source), so every chart has history.
    const prompts = app.get(TrackedPromptsRepository);
    const history = app.get(AnswerHistorySeeder);
    const yesterday = new Date(Date.now() - 86_400_000);
    const historyDays = options.historyDays ?? DEMO_HISTORY_DAYS;
    let answers = 0;
    const promptIds = new Map<string, number>();
    for (const brand of brands) {
      const added = [];
      for (const query of DEMO_PROMPTS[brand.name]) {
        const r = await prompts.add(brand, { query, topic: null, tags: [], providers: [...PROVIDERS], country: null, language: null, isActive: true });
        if ('prompt' in r) added.push(r.prompt);
      }
      if (brand === brands[0]) for (const p of added) promptIds.set(p.query, p.id);
      // The first brand's history tells the closed loop's stories (demo-loop.ts).
      const standingShift = brand === brands[0] && historyDays >= LOOP_MIN_HISTORY_DAYS ? loopStandingShift(Math.floor(yesterday.getTime() / 86_400_000)) : undefined;
      const seeded = await history.seed({ organizationId: org.id, tracked: { brand, competitors: brand.competitors }, prompts: added, days: historyDays, lastDay: yesterday, standingShift });
      answers += seeded.answers;
    }
    // The closed loop replayed over that history: detectors open, fixes verified, resolved with an outcome, one regressed.
    const loop = historyDays < LOOP_MIN_HISTORY_DAYS ? null : await seedLoop(app, { organizationId: org.id, clientId: client.id, brandId: brands[0].id, promptIds, lastDay: yesterday, historyDays, rand });

    // A month of AI agents on the first brand's site (demo-bots.ts), from a sequence of its own (the opportunities below stay as they were).
    const botVisits = await seedBotVisits(app, { organizationId: org.id, brandId: brands[0].id, domain: brands[0].domain, lastDay: yesterday, days: Math.min(30, historyDays), rand: random(7) });

    const count = options.opportunities ?? 320;
    const now = Date.now();
    let resolvedWithOutcome = 0;
    const seedOne = async (i: number) => {
      const brand = brands[i % brands.length];
      const type = TYPES[i % TYPES.length];
      const severity: Severity = SEVERITIES[Math.min(3, Math.floor(rand() * rand() * 5))];
      const rival = pick(rand, brand.competitors).name;
      const engine = pick(rand, ENGINES);
      const detectedAt = new Date(now - Math.floor(rand() * 120 * 86_400_000));
      const actor = { subject: 'seed', actor: 'seed:demo' };
      const detected = await commands.execute(
        new DetectOpportunityCommand(
          {
            organizationId: org.id,
            brandId: brand.id,
            type,
            severity,
            title: `${TITLES[type](brand.name, rival, engine)} (#${i + 1})`,
            description: `Seen in ${2 + Math.floor(rand() * 20)} of 40 tracked prompts on ${engine}.`,
            evidence: { engine, rival, prompts: 40, affected: 2 + Math.floor(rand() * 20) },
            // Made up for the queue's variety, not by a detector (the loop's stories above are the detectors' own).
            source: `demo:${type}`,
            detectedAt,
          },
          actor,
          `seed-${i}`,
        ),
      );
      const id = detected.state.id;
      const meta = { organizationId: org.id, actor: 'seed:demo', correlationId: `seed-${i}` };
      let t = detectedAt.getTime();
      const step = () => new Date((t += Math.floor((2 + rand() * 70) * 3_600_000)));
      const owner = pick(rand, OWNERS);
      for (const toStatus of pickPath(rand)) {
        const at = step();
        if (at.getTime() > now) break;
        if (toStatus === 'verifying' || toStatus === 'regressed' || toStatus === 'resolved') {
          if (toStatus !== 'verifying') {
            const passed = toStatus === 'resolved';
            await repository.execute(id, () => ({ kind: 'record_verification', status: passed ? 'passed' : 'failed', details: { engine, citedAfterFix: passed }, now: at }), meta);
          }
        }
        const reason = toStatus === 'dismissed' ? 'Not actionable: the prompt is out of scope' : toStatus === 'regressed' ? 'Re-check failed' : null;
        await repository.execute(id, () => ({ kind: 'transition', toStatus, owner: toStatus === 'assigned' ? owner : null, reason, now: at }), { ...meta, reason });
        if (toStatus === 'resolved' && rand() < 0.75) {
          const before = Math.round(rand() * 20) / 100;
          const finalizedAt = step();
          if (finalizedAt.getTime() <= now) {
            await repository.execute(
              id,
              () => ({
                kind: 'finalize_outcome',
                citationRateBefore: before,
                citationRateAfter: Math.min(1, before + Math.round(rand() * 30) / 100),
                aiTrafficBefore: Math.round(200 + rand() * 800),
                aiTrafficAfter: Math.round(400 + rand() * 1600),
                conversions: Math.round(rand() * 25),
                revenue: Math.round(rand() * 12_000),
                now: finalizedAt,
              }),
              meta,
            );
            resolvedWithOutcome++;
          }
        }
      }
    };
    for (let i = 0; i < count; i += 8) await Promise.all(Array.from({ length: Math.min(8, count - i) }, (_, k) => seedOne(i + k)));

    return {
      organization: { id: org.id, name: org.name, tier: org.tier },
      brands: brands.map((b) => ({ id: b.id, name: b.name, domain: b.domain, competitors: b.competitors.map((c) => c.name) })),
      keys: [
        { id: full.id, key: full.key, scopes: full.scopes, name: 'demo: full access' },
        { id: readOnly.id, key: readOnly.key, scopes: readOnly.scopes, name: 'demo: read only' },
      ],
      opportunities: count,
      resolvedWithOutcome,
      prompts: DEMO_PROMPTS[brands[0].name].length,
      historyDays,
      answers,
      botVisits,
      loop,
    };
  } finally {
    await app.close();
  }
}

/** True when the database has no organisation yet (npm start seeds only then). */
export async function isEmpty(ds: DataSource): Promise<boolean> {
  const [{ n }]: { n: number }[] = await ds.query('SELECT count(*)::int AS n FROM organizations');
  return n === 0;
}
