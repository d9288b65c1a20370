import { CATEGORY_WEIGHT, type BotAccess, type BotVisits } from './bot-access';
import type { PageSignals } from './page-signals';

/** The components of a page's GEO score and their weights (they add up to 100; README, "Page audits"). */
export const COMPONENT_WEIGHTS = {
  structuredData: 20,
  metadata: 10,
  answerFirst: 15,
  statistics: 10,
  quotations: 10,
  citedSources: 10,
  freshness: 10,
  readability: 5,
  botAccess: 10,
} as const;

export type Component = keyof typeof COMPONENT_WEIGHTS;
export const COMPONENTS = Object.keys(COMPONENT_WEIGHTS) as Component[];
export type Effort = 'low' | 'medium' | 'high';

/** One check inside a component: what it is worth, what the page got, and what to do when it falls short. */
export interface Check {
  code: string;
  /** Share of the component this check is worth (a component's checks add up to 1). */
  max: number;
  got: number;
  /** What was found, in words (evidence). */
  finding: string;
  /** What to do, when got < max. */
  action: string;
  effort: Effort;
  /** Extra evidence (examples, blocked agents, dates). */
  evidence?: Record<string, unknown>;
}

export interface ComponentScore {
  component: Component;
  weight: number;
  /** 0-1: the checks' share got. */
  value: number;
  /** weight x value, rounded to 0.1. */
  points: number;
  checks: Check[];
}

export interface PageScore {
  /** 0-100: the components' points, rounded. */
  score: number;
  components: ComponentScore[];
  /** What the page looks like (it decides which schema types fit). */
  kinds: PageKind[];
}

export type PageKind = 'home' | 'product' | 'faq' | 'howto' | 'article';

/** Schema.org types that fit each kind of page. */
export const FITTING_TYPES: Readonly<Record<PageKind, readonly string[]>> = {
  home: ['Organization', 'Corporation', 'LocalBusiness', 'WebSite'],
  product: ['Product', 'SoftwareApplication', 'Service', 'Offer'],
  faq: ['FAQPage', 'QAPage'],
  howto: ['HowTo'],
  article: ['Article', 'BlogPosting', 'NewsArticle', 'TechArticle', 'Report'],
};
const KNOWN_TYPES = new Set([...Object.values(FITTING_TYPES).flat(), 'WebPage', 'BreadcrumbList', 'Person', 'Review', 'Event', 'Course', 'Recipe', 'VideoObject', 'ItemList', 'AboutPage', 'ContactPage']);

/** Properties an item of a type needs to be useful to an engine (any one of a group of alternatives). */
const REQUIRED: Readonly<Record<string, readonly (readonly string[])[]>> = {
  Organization: [['name'], ['url'], ['logo', 'sameAs', 'description']],
  WebSite: [['name'], ['url']],
  Product: [['name'], ['offers', 'aggregateRating', 'review'], ['description', 'image']],
  SoftwareApplication: [['name'], ['offers', 'aggregateRating'], ['applicationCategory', 'operatingSystem', 'description']],
  FAQPage: [['mainEntity']],
  HowTo: [['name'], ['step']],
  Article: [['headline'], ['author'], ['datePublished']],
  BlogPosting: [['headline'], ['author'], ['datePublished']],
  NewsArticle: [['headline'], ['author'], ['datePublished']],
  TechArticle: [['headline'], ['author'], ['datePublished']],
};

export const GEO_PAPER = 'GEO (Aggarwal et al., KDD 2024): adding statistics, quotations and cited sources raised a source’s visibility in generative answers by about 30-40 %';

const round1 = (x: number) => Math.round(x * 10) / 10;
const clamp01 = (x: number) => Math.max(0, Math.min(1, x));
const DAY_MS = 86_400_000;

/** What the page is, from its URL and signals. */
export function pageKinds(url: string, s: PageSignals): PageKind[] {
  const kinds: PageKind[] = [];
  const path = new URL(url).pathname;
  const ldTypes = new Set(s.jsonLd.flatMap((b) => b.items.flatMap((i) => [...i.types, ...i.nestedTypes])));
  if (path === '/' || path === '') kinds.push('home');
  if ((s.hints.price && (s.hints.cart || /\/(products?|pricing|plans?|shop|store)\b/i.test(path))) || ldTypes.has('Product') || ldTypes.has('Offer')) kinds.push('product');
  if (s.hints.questionHeadings >= 3 || /\bfaq\b/i.test(path)) kinds.push('faq');
  if (s.hints.steps >= 3 && /\bhow\b|\bguide\b|\bsteps?\b|\btutorial\b/i.test(`${path} ${s.title ?? ''} ${s.headings[0]?.text ?? ''}`)) kinds.push('howto');
  if (!kinds.includes('home') && (s.hints.byline || s.dates.some((d) => d.kind === 'published')) && s.words >= 300) kinds.push('article');
  return kinds;
}

function structuredData(s: PageSignals, kinds: PageKind[]): Check[] {
  const blocks = s.jsonLd;
  const items = blocks.flatMap((b) => b.items);
  const types = new Set(items.flatMap((i) => i.types));
  const broken = blocks.map((b, k) => ({ k, b })).filter(({ b }) => !b.ok);
  const checks: Check[] = [];
  checks.push({
    code: 'add_json_ld',
    max: 0.3,
    got: blocks.length ? 0.3 : 0,
    finding: blocks.length ? `${blocks.length} JSON-LD block(s)` : 'no JSON-LD structured data',
    action: 'Describe the page in a <script type="application/ld+json"> block (schema.org), so engines read what it is without guessing',
    effort: 'low',
  });
  if (!blocks.length) {
    const fit = kinds.length ? kinds.map((k) => FITTING_TYPES[k][0]) : ['WebPage'];
    checks.push({ code: 'add_schema_type', max: 0.7, got: 0, finding: `no schema.org type (this page would fit ${fit.join(', ')})`, action: `Mark the page up as ${fit.join(' and ')}`, effort: 'low', evidence: { expectedTypes: fit } });
    return checks;
  }
  checks.push({
    code: 'fix_json_ld',
    max: 0.2,
    got: broken.length ? 0 : 0.2,
    finding: broken.length ? `${broken.length} of ${blocks.length} JSON-LD block(s) do not parse: ${broken.map(({ k, b }) => `block ${k + 1}: ${b.error}`).join('; ')}` : 'every JSON-LD block parses',
    action: 'Fix the JSON-LD syntax (a broken block is ignored whole by every engine)',
    effort: 'low',
    evidence: broken.length ? { errors: broken.map(({ k, b }) => ({ block: k + 1, error: b.error })) } : undefined,
  });
  const missing = kinds.filter((k) => !FITTING_TYPES[k].some((t) => types.has(t)));
  const known = [...types].filter((t) => KNOWN_TYPES.has(t));
  const fitShare = kinds.length ? (kinds.length - missing.length) / kinds.length : known.length ? 1 : 0;
  checks.push({
    code: 'add_schema_type',
    max: 0.3,
    got: 0.3 * fitShare,
    finding: kinds.length
      ? `the page looks like ${kinds.join(', ')}; its types are ${[...types].join(', ') || 'none'}${missing.length ? `; missing ${missing.map((k) => FITTING_TYPES[k][0]).join(', ')}` : ''}`
      : `types ${[...types].join(', ') || 'none'}`,
    action: missing.length ? `Add ${missing.map((k) => FITTING_TYPES[k][0]).join(' and ')} markup matching what the page shows` : 'Use a schema.org type that says what the page is',
    effort: 'low',
    evidence: { types: [...types], pageKinds: kinds, expectedTypes: missing.map((k) => FITTING_TYPES[k][0]) },
  });
  const judged = items.flatMap((i) => i.types.filter((t) => REQUIRED[t]).map((t) => ({ t, i })));
  const incomplete = judged
    .map(({ t, i }) => ({ t, lacking: REQUIRED[t].filter((group) => !group.some((p) => i.props.includes(p))).map((g) => g.join('|')), empty: t === 'FAQPage' && i.parts === 0 }))
    .filter((x) => x.lacking.length || x.empty);
  checks.push({
    code: 'complete_schema',
    max: 0.2,
    got: judged.length ? 0.2 * (1 - incomplete.length / judged.length) : 0,
    finding: !judged.length
      ? 'no item of a type whose properties are checked'
      : incomplete.length
        ? incomplete.map((x) => `${x.t} lacks ${x.empty ? 'questions with acceptedAnswer' : x.lacking.join(', ')}`).join('; ')
        : `${judged.length} item(s) carry their key properties`,
    action: 'Fill in the key properties of each item (name, offers, author, dates, questions with answers)',
    effort: 'low',
    evidence: incomplete.length ? { incomplete } : undefined,
  });
  return checks;
}

function metadata(s: PageSignals): Check[] {
  const t = s.title?.length ?? 0;
  const d = s.description?.length ?? 0;
  const h1 = s.headings.filter((h) => h.level === 1).length;
  const h2 = s.headings.filter((h) => h.level === 2).length;
  let skips = 0;
  for (let k = 1; k < s.headings.length; k++) if (s.headings[k].level > s.headings[k - 1].level + 1) skips++;
  return [
    {
      code: 'fix_title',
      max: 0.3,
      got: t >= 10 && t <= 70 ? 0.3 : t > 0 ? 0.15 : 0,
      finding: t ? `title of ${t} characters: "${s.title!.slice(0, 80)}"` : 'no <title>',
      action: 'Give the page a specific <title> of 10-70 characters naming the brand and the topic',
      effort: 'low',
    },
    {
      code: 'add_description',
      max: 0.3,
      got: d >= 50 && d <= 170 ? 0.3 : d > 0 ? 0.15 : 0,
      finding: d ? `meta description of ${d} characters` : 'no meta description',
      action: 'Write a meta description of 50-170 characters that answers the page’s main question',
      effort: 'low',
    },
    {
      code: 'fix_h1',
      max: 0.2,
      got: h1 === 1 ? 0.2 : h1 > 1 ? 0.1 : 0,
      finding: `${h1} <h1>`,
      action: 'Use exactly one <h1> stating the page’s subject',
      effort: 'low',
    },
    {
      code: 'fix_headings',
      max: 0.2,
      got: (h2 >= 2 ? 0.1 : h2 === 1 ? 0.05 : 0) + (skips === 0 ? 0.1 : 0),
      finding: `${h2} <h2>, ${skips} skipped heading level(s)`,
      action: 'Break the content into sections with <h2>/<h3> headings in order (engines quote sections)',
      effort: 'low',
    },
  ];
}

function answerFirst(s: PageSignals): Check[] {
  const lead = s.lead;
  let got = 0;
  let finding = 'no paragraph of 8 words or more';
  if (lead) {
    const position = lead.wordsBefore <= 100 ? 1 : lead.wordsBefore <= 250 ? 0.5 : 0.2;
    const length = lead.words >= 15 && lead.words <= 80 ? 1 : lead.words < 15 ? 0.6 : lead.words <= 150 ? 0.6 : 0.3;
    const statement = lead.text.trim().endsWith('?') ? 0.5 : 1;
    got = position * length * statement;
    finding = `the first paragraph (${lead.words} words) starts after ${lead.wordsBefore} words${statement < 1 ? ' and asks a question' : ''}: "${lead.text.slice(0, 120)}"`;
  }
  return [
    {
      code: 'answer_first',
      max: 1,
      got,
      finding,
      action: 'Open with a 15-80 word paragraph that answers the page’s main question directly (engines lift opening answers)',
      effort: 'medium',
      evidence: lead ? { lead: lead.text.slice(0, 300), wordsBefore: lead.wordsBefore, words: lead.words } : undefined,
    },
  ];
}

function statistics(s: PageSignals): Check[] {
  return [
    {
      code: 'add_statistics',
      max: 1,
      got: clamp01(s.statistics / 3),
      finding: `${s.statistics} figure(s)${s.statisticExamples.length ? `: ${s.statisticExamples.join(', ')}` : ''}`,
      action: `Add at least three concrete figures (percentages, prices, counts, measured results). ${GEO_PAPER}`,
      effort: 'medium',
      evidence: { examples: s.statisticExamples },
    },
  ];
}

function quotations(s: PageSignals): Check[] {
  return [
    {
      code: 'add_quotations',
      max: 1,
      got: clamp01(s.quotations / 2),
      finding: `${s.quotations} quotation(s)`,
      action: `Quote customers, experts or sources by name (<blockquote>/<q> with attribution). ${GEO_PAPER}`,
      effort: 'medium',
      evidence: { examples: s.quotationExamples },
    },
  ];
}

function citedSources(s: PageSignals): Check[] {
  return [
    {
      code: 'cite_sources',
      max: 1,
      got: clamp01(s.outboundLinks / 3),
      finding: `${s.outboundLinks} link(s) in the content to other sites${s.outboundExamples.length ? ` (${s.outboundExamples.join(', ')})` : ''}`,
      action: `Cite at least three reputable sources with links in the text. ${GEO_PAPER}`,
      effort: 'low',
      evidence: { hosts: s.outboundExamples },
    },
  ];
}

function freshness(s: PageSignals, now: Date): Check[] {
  const today = now.getTime();
  const usable = s.dates.filter((d) => Date.parse(d.day) <= today + DAY_MS);
  const newest = usable.reduce<string | null>((a, d) => (a === null || d.day > a ? d.day : a), null);
  const inMarkup = usable.some((d) => d.source !== 'text');
  const visible = usable.some((d) => d.source === 'text' || d.source === 'time');
  let age: number | null = null;
  let got = 0;
  if (newest) {
    age = Math.floor((today - Date.parse(newest)) / DAY_MS);
    const recency = age <= 90 ? 1 : age <= 180 ? 0.8 : age <= 365 ? 0.6 : age <= 730 ? 0.3 : 0.1;
    got = 0.7 * recency + (inMarkup ? 0.15 : 0) + (visible ? 0.15 : 0);
  }
  return [
    {
      code: newest && age !== null && age > 365 ? 'refresh_content' : 'show_dates',
      max: 1,
      got,
      finding: newest ? `newest date ${newest} (${age} days old); ${inMarkup ? 'in the markup' : 'not in the markup'}, ${visible ? 'visible' : 'not visible'}` : 'no date in the content or the markup',
      action: newest && age !== null && age > 365 ? 'Review and update the content, then show the new date (dateModified and a visible "Updated" line)' : 'Show when the page was published and last updated: dateModified/datePublished in JSON-LD and a visible date',
      effort: newest && age !== null && age > 365 ? 'medium' : 'low',
      evidence: { newest, ageDays: age, dates: usable.slice(0, 5) },
    },
  ];
}

/** Flesch reading ease of the content (English; other languages are scored the same way, roughly). */
export function fleschReadingEase(s: Pick<PageSignals, 'words' | 'sentences' | 'syllables'>): number | null {
  if (s.words < 50 || s.sentences < 1) return null;
  return 206.835 - 1.015 * (s.words / s.sentences) - 84.6 * (s.syllables / s.words);
}

function readability(s: PageSignals): Check[] {
  const ease = fleschReadingEase(s);
  return [
    {
      code: 'simplify_text',
      max: 1,
      got: ease === null ? 0 : clamp01((ease - 20) / 40),
      finding: ease === null ? `too little text to read (${s.words} words)` : `Flesch reading ease ${Math.round(ease)} (${Math.round(s.words / Math.max(1, s.sentences))} words a sentence)`,
      action: ease === null ? 'Give the page enough text (at least a few paragraphs) to answer a question' : 'Shorten sentences and prefer plain words (aim for a reading ease of 60 or more)',
      effort: 'medium',
      evidence: { fleschReadingEase: ease === null ? null : Math.round(ease), words: s.words, sentences: s.sentences },
    },
  ];
}

/** AI bots answered 4xx/5xx on this page (agent analytics): they could not read it when they came. */
function botErrors(seen: BotVisits | null): Check {
  const visits = seen?.bots.reduce((a, b) => a + b.visits, 0) ?? 0;
  const errors = seen?.bots.reduce((a, b) => a + b.errors, 0) ?? 0;
  const failing = seen?.bots.filter((b) => b.errors > 0) ?? [];
  return {
    code: 'fix_bot_errors',
    max: 0.2,
    got: visits ? 0.2 * (1 - errors / visits) : 0.2,
    finding: !seen || !visits ? 'no AI bot visits of this page recorded by agent analytics' : errors ? `${errors} of ${visits} AI bot visits in ${seen.days} days got an error (${failing.map((b) => `${b.bot}: ${b.statuses.join('/')}`).join(', ')})` : `${visits} AI bot visits in ${seen.days} days, none answered with an error`,
    action: 'Serve the page to AI bots without errors (check what answers 4xx/5xx to their user agents: WAF rules, rate limits, bot blocking)',
    effort: 'medium',
    evidence: failing.length ? { days: seen!.days, bots: failing } : undefined,
  };
}

function botAccess(s: PageSignals, access: BotAccess): Check[] {
  const total = access.agents.reduce((a, x) => a + CATEGORY_WEIGHT[x.category], 0);
  const allowed = access.agents.filter((a) => a.allowed).reduce((a, x) => a + CATEGORY_WEIGHT[x.category], 0);
  const blocked = access.agents.filter((a) => !a.allowed);
  const noindex = /\b(noindex|none)\b/.test(s.metaRobots ?? '');
  return [
    {
      code: 'allow_ai_bots',
      max: 0.6,
      got: total ? (0.6 * allowed) / total : 0,
      finding:
        access.robots === 'unavailable'
          ? 'robots.txt could not be read (5xx or unreachable): crawlers treat the whole site as disallowed'
          : blocked.length
            ? `robots.txt blocks ${blocked.map((b) => b.agent).join(', ')}`
            : `robots.txt ${access.robots === 'missing' ? 'is missing (everything allowed)' : 'allows every AI agent checked'}`,
      action:
        access.robots === 'unavailable'
          ? 'Serve robots.txt (200 or 404): while it fails, AI crawlers fetch nothing'
          : `Allow the AI search and user agents in robots.txt (${blocked.filter((b) => b.category !== 'training').map((b) => b.agent).join(', ') || blocked.map((b) => b.agent).join(', ')}); blocking them keeps the page out of their answers`,
      effort: 'low',
      evidence: { robots: access.robots, blocked: blocked.map((b) => ({ agent: b.agent, operator: b.operator, category: b.category })) },
    },
    botErrors(access.seen ?? null),
    {
      code: 'remove_noindex',
      max: 0.2,
      got: noindex ? 0 : 0.2,
      finding: noindex ? `<meta name="robots" content="${s.metaRobots}">` : 'no noindex',
      action: 'Remove noindex from the page’s robots meta tag: engines that answer from a search index will not show it',
      effort: 'low',
    },
  ];
}

/**
 * The page's GEO score: each component's checks (what each is worth, what the page got), its
 * value 0-1 and points (weight x value), and the total 0-100. Pure: `now` dates the freshness.
 */
export function scorePage(url: string, s: PageSignals, access: BotAccess, now: Date): PageScore {
  const kinds = pageKinds(url, s);
  const checks: Record<Component, Check[]> = {
    structuredData: structuredData(s, kinds),
    metadata: metadata(s),
    answerFirst: answerFirst(s),
    statistics: statistics(s),
    quotations: quotations(s),
    citedSources: citedSources(s),
    freshness: freshness(s, now),
    readability: readability(s),
    botAccess: botAccess(s, access),
  };
  const components = COMPONENTS.map((component): ComponentScore => {
    const list = checks[component];
    const value = clamp01(list.reduce((a, c) => a + c.got, 0) / list.reduce((a, c) => a + c.max, 0));
    const weight = COMPONENT_WEIGHTS[component];
    return { component, weight, value: Math.round(value * 1000) / 1000, points: round1(weight * value), checks: list };
  });
  const score = Math.round(components.reduce((a, c) => a + c.weight * c.value, 0));
  return { score, components, kinds };
}
