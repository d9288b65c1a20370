import type { Provider } from '../../domain';
import { EngineError, type AnswerEngine, type EngineAnswer, type EngineQuestion } from './answer-engine';

/** FNV-1a of a text: the seed of an answer, so the same question on the same day gives the same answer. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let k = 0; k < text.length; k++) {
    h ^= text.charCodeAt(k);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: a small, good-enough deterministic generator. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DAY = 86_400_000;
const PRAISE = ['is the strongest all-rounder here', 'is reliable and easy to set up', 'offers great value for the price', 'stands out for its support', 'is a solid choice for most teams'];
const NEUTRAL = ['covers the basics', 'offers a free trial and monthly plans', 'is available in most regions', 'integrates with the usual tools', 'has a plan for small teams'];
const CRITICISM = ['is pricey for what it offers', 'has had outages and support complaints', 'feels dated and clunky', 'lacks features the others include', 'is harder to set up than it should be'];
const REVIEW_SITES = ['g2.com', 'capterra.com', 'techradar.com', 'pcmag.com', 'reddit.com', 'wirecutter.com', 'trustpilot.com'];
/** Each engine's own lean, so that providers differ as they do in life. */
const PROVIDER_LEAN: Readonly<Record<Provider, number>> = { chatgpt: 0.1, claude: 0, gemini: -0.05, perplexity: 0.05 };
const CITES: Readonly<Record<Provider, number>> = { chatgpt: 3, claude: 2, gemini: 4, perplexity: 5 };

/**
 * The `recorded` source (DESIGN §13.1): a provider without an API key is answered by this
 * deterministic generator of realistic answers about the question's brand and competitors. The
 * brand's chance to be named, its place and the tone about it drift with the day (a slow wave and
 * a trend), differently per provider, so charts move; the same question, provider and day always
 * give the same answer (a market, DESIGN §17, its own). Every answer says `source: "recorded"`.
 */
export class RecordedEngine implements AnswerEngine {
  readonly source = 'recorded' as const;

  /**
   * `standingShift` (the demo seed's story) moves the brand's standing for a query on a UTC day
   * number: +0.5 puts it first in nearly every answer, -1 leaves it out of nearly every answer.
   */
  constructor(
    readonly provider: Provider,
    private readonly standingShift?: (query: string, day: number) => number,
  ) {}

  ask(question: EngineQuestion): Promise<EngineAnswer> {
    if (question.signal?.aborted) return Promise.reject(new EngineError('timeout', 'aborted'));
    const day = Math.floor(question.askedAt.getTime() / DAY);
    // A market makes its own answers (engines answer differently per country and language); none keeps the seed it always had.
    const market = question.market?.country || question.market?.language ? `\u0000${question.market.country ?? ''}\u0000${question.market.language ?? ''}` : '';
    const random = generator(hash(`${this.provider}\u0000${question.query}\u0000${day}${market}`));
    const brand = question.entities.find((e) => e.kind === 'brand');
    const competitors = question.entities.filter((e) => e.kind === 'competitor');
    // The brand's standing: a 60-day wave, a slow upward trend, the provider's lean and the query's own bias.
    const wave = Math.sin((2 * Math.PI * day) / 60 + (hash(question.query) % 628) / 100);
    const standing = 0.15 * wave + 0.0015 * (day % 365) - 0.2 + PROVIDER_LEAN[this.provider] + ((hash(question.query) % 100) / 100 - 0.5) * 0.4 + (this.standingShift?.(question.query, day) ?? 0);
    const options = [...competitors].sort(() => random() - 0.5).slice(0, 2 + Math.floor(random() * Math.min(3, competitors.length)));
    if (brand && random() < 0.55 + standing) {
      const place = Math.max(0, Math.min(options.length, Math.floor((1 - (standing + 0.5 + random() * 0.4)) * (options.length + 1))));
      options.splice(place, 0, brand);
    }
    const tone = (isBrand: boolean) => {
      const x = random() + (isBrand ? standing : 0);
      return x > 0.75 ? PRAISE : x < 0.2 ? CRITICISM : NEUTRAL;
    };
    const lines = options.map((e, k) => {
      const phrases = tone(e === brand);
      return `${k + 1}. **${e.name}** – ${e.name} ${phrases[Math.floor(random() * phrases.length)]}.`;
    });
    const urls: { url: string; title: string | null }[] = [];
    for (let k = 0; k < CITES[this.provider]; k++) {
      const own = options[k % Math.max(1, options.length)];
      const domain = own && random() < 0.5 && own.domains.length ? own.domains[0] : REVIEW_SITES[Math.floor(random() * REVIEW_SITES.length)];
      urls.push({ url: `https://${domain}/${question.query.toLowerCase().replace(/[^a-z0-9]+/g, '-').slice(0, 60)}`, title: domain });
    }
    const seen = new Set<string>();
    const citations = urls.filter((u) => !seen.has(u.url) && (seen.add(u.url), true));
    const intro = options.length ? `Here are the options most people consider for "${question.query}":` : `I could not find options worth recommending for "${question.query}".`;
    const text = [intro, '', ...lines, '', options.length ? `Overall, ${options[0].name} is the safest pick for most buyers.` : ''].join('\n').trim();
    return Promise.resolve({
      text,
      citations,
      model: `recorded-${this.provider}`,
      source: 'recorded',
      usage: null,
      raw: { generator: 'recorded', day, provider: this.provider },
    });
  }
}
