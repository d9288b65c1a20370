import { brokenJsonLdPage, productPage, sizedPage, thinArticle } from '../../../../test/page-audits/support/fixture-pages';
import { AI_AGENTS, RobotsRules } from './bot-access';
import { decodeBody, parseSitemap, urlProblem } from './page-content';
import { COMPONENT_WEIGHTS, scorePage } from './page-score';
import { extractSignals, syllablesOf } from './page-signals';
import { answerFindings, pageFindings, pageRecommendations, rankRecommendations } from './recommendations';

const origin = 'https://acme.example';
const open = new RobotsRules(`${origin}/robots.txt`, { state: 'missing' });
const now = new Date();
const score = (html: string, url = `${origin}/products/crm`, rules = open) => scorePage(url, extractSignals(html, url), rules.botAccess(url), now);
const component = (s: ReturnType<typeof score>, name: string) => s.components.find((c) => c.component === name)!;

describe('page scoring', () => {
  it('weights add up to 100', () => {
    expect(Object.values(COMPONENT_WEIGHTS).reduce((a, b) => a + b, 0)).toBe(100);
  });

  it('scores a well-structured product page high in every component', () => {
    const s = score(productPage(origin));
    expect(s.kinds).toEqual(expect.arrayContaining(['product', 'faq']));
    for (const c of s.components) expect({ c: c.component, v: c.value >= 0.7 }).toEqual({ c: c.component, v: true });
    expect(s.score).toBeGreaterThanOrEqual(85);
    expect(s.components.reduce((a, c) => a + c.points, 0)).toBeCloseTo(s.score, -0.5);
    const signals = extractSignals(productPage(origin), `${origin}/products/crm`);
    expect(signals.lead).toMatchObject({ wordsBefore: 3 });
    expect(signals.outboundExamples).toEqual(['gartner.com', 'hbr.org', 'forrester.com']);
    expect(signals.statistics).toBeGreaterThanOrEqual(5);
    expect(signals.quotations).toBeGreaterThanOrEqual(2);
  });

  it('a broken JSON-LD block costs structured data and is recommended first for its low effort', () => {
    const good = score(productPage(origin));
    const broken = score(brokenJsonLdPage(origin));
    expect(component(broken, 'structuredData').value).toBeLessThan(component(good, 'structuredData').value);
    const fix = component(broken, 'structuredData').checks.find((c) => c.code === 'fix_json_ld')!;
    expect(fix).toMatchObject({ got: 0, finding: expect.stringMatching(/do not parse/) });
    const recs = pageRecommendations(broken);
    expect(recs.map((r) => r.code)).toContain('fix_json_ld');
    expect(recs.find((r) => r.code === 'fix_json_ld')).toMatchObject({ component: 'structuredData', effort: 'low', expectedEffect: 4 });
  });

  it('scores a thin, old, unstructured post low and says what to do', () => {
    const s = score(thinArticle(), `${origin}/blog/thoughts`);
    expect(s.score).toBeLessThan(40);
    const codes = pageRecommendations(s).map((r) => r.code);
    expect(codes).toEqual(expect.arrayContaining(['add_json_ld', 'add_statistics', 'add_quotations', 'cite_sources', 'refresh_content', 'add_description', 'fix_h1']));
    expect(component(s, 'freshness').checks[0].evidence).toMatchObject({ newest: '2019-01-03' });
  });

  it('reads robots.txt per AI agent: a page blocked for GPTBot loses bot access; an unavailable robots.txt blocks all', () => {
    const rules = new RobotsRules(`${origin}/robots.txt`, { state: 'found', text: 'User-agent: GPTBot\nDisallow: /private/\n\nUser-agent: *\nAllow: /\n' });
    const blocked = rules.botAccess(`${origin}/private/x`);
    expect(blocked.agents.filter((a) => !a.allowed).map((a) => a.agent)).toEqual(['GPTBot']);
    expect(rules.botAccess(`${origin}/public`).agents.every((a) => a.allowed)).toBe(true);
    const s = score(productPage(origin), `${origin}/private/x`, rules);
    expect(component(s, 'botAccess').value).toBeLessThan(1);
    expect(pageRecommendations(s).find((r) => r.code === 'allow_ai_bots')!.evidence).toMatchObject({ blocked: [{ agent: 'GPTBot' }] });
    const down = new RobotsRules(`${origin}/robots.txt`, { state: 'unavailable', reason: 'answered HTTP 503', code: 'http_503', unreachable: false });
    expect(down.botAccess(`${origin}/`).agents.some((a) => a.allowed)).toBe(false);
    expect(AI_AGENTS.length).toBeGreaterThan(10);
  });

  it('decodes declared charsets and refuses broken encodings, binaries and unknown charsets with a reason', () => {
    expect(decodeBody('text/html; charset=utf-8', Buffer.from('<p>café</p>'))).toMatchObject({ ok: true, text: '<p>café</p>' });
    expect(decodeBody('text/html; charset=iso-8859-1', Buffer.from([0x3c, 0x70, 0x3e, 0xe9]))).toMatchObject({ ok: true, text: '<p>é' });
    expect(decodeBody(undefined, Buffer.from('<meta charset="windows-1252"><p>\x80</p>', 'latin1'))).toMatchObject({ ok: true, charset: 'windows-1252' });
    expect(decodeBody('text/html; charset=utf-8', Buffer.from([0x3c, 0x70, 0x3e, 0xc3, 0x28]))).toMatchObject({ ok: false, reason: expect.stringMatching(/broken encoding/) });
    expect(decodeBody('text/html; charset=klingon', Buffer.from('x'))).toMatchObject({ ok: false, reason: expect.stringMatching(/unknown character encoding/) });
  });

  it('parses sitemaps and refuses what is not one', () => {
    expect(parseSitemap('<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc> https://a.example/x?a=1&amp;b=2 </loc></url></urlset>')).toEqual({ ok: true, kind: 'urlset', locations: ['https://a.example/x?a=1&b=2'] });
    expect(parseSitemap('<sitemapindex><sitemap><loc>https://a.example/s1.xml</loc></sitemap></sitemapindex>')).toMatchObject({ ok: true, kind: 'sitemapindex' });
    expect(parseSitemap('{"urls": []}')).toEqual({ ok: false, reason: 'the sitemap is not XML' });
    expect(parseSitemap('<!doctype html><html><body>Not found</body></html>')).toMatchObject({ ok: false, reason: expect.stringMatching(/root element/) });
  });

  it('checks URLs', () => {
    expect(urlProblem('https://acme.example/x')).toBeNull();
    expect(urlProblem('ftp://acme.example/x')).toMatch(/http or https/);
    expect(urlProblem('not a url')).toMatch(/not a valid/);
    expect(urlProblem('https://user:pw@acme.example/')).toMatch(/credentials/);
    expect(urlProblem(7)).toMatch(/string/);
  });

  it('counts syllables plausibly', () => {
    expect(['cat', 'table', 'relationship', 'organisation', 'the'].map(syllablesOf)).toEqual([1, 2, 4, 5, 1]);
  });
});

describe('recommendations', () => {
  it('groups page findings across pages and ranks them with answer findings by effect for the effort', () => {
    const pages = [
      { url: `${origin}/a`, html: thinArticle() },
      { url: `${origin}/b`, html: brokenJsonLdPage(origin) },
      { url: `${origin}/c`, html: productPage(origin) },
    ].map(({ url, html }) => {
      const s = scorePage(url, extractSignals(html, url), open.botAccess(url), now);
      return { url, score: s.score, recommendations: pageRecommendations(s) };
    });
    const fromPages = pageFindings(pages);
    const jsonLd = fromPages.find((r) => r.code === 'fix_json_ld')!;
    expect(jsonLd.evidence).toMatchObject({ pagesAffected: 1, pagesAudited: 3 });
    const fromAnswers = answerFindings([{ query: 'best crm for agencies', answers: 6, providers: ['chatgpt'], competitorPages: [{ url: 'https://globex.example/crm', domain: 'globex.example', competitor: 'Globex', citations: 6 }] }], 20);
    expect(fromAnswers[0]).toMatchObject({ source: 'answers', expectedEffect: { value: 30, unit: 'citation_rate_points' }, priority: 15 });
    const ranked = rankRecommendations([...fromPages, ...fromAnswers]);
    expect(ranked[0].id).toBe('answers:best crm for agencies');
    for (let k = 1; k < ranked.length; k++) expect(ranked[k - 1].priority).toBeGreaterThanOrEqual(ranked[k].priority);
  });

  it('scores 50 KB pages fast enough for the benchmark (sanity, not the measure)', () => {
    const html = sizedPage(origin, 1);
    expect(html.length).toBeGreaterThanOrEqual(50_000);
    const started = performance.now();
    for (let k = 0; k < 20; k++) scorePage(`${origin}/p${k}`, extractSignals(html, `${origin}/p${k}`), open.botAccess(`${origin}/p${k}`), now);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
