import { botCatalogue } from './bot-catalogue';
import { AI_REFERRERS, aiReferralSource, BotClassifier, utmAiSource } from './classify';
import { logParser } from './log-formats';
import { PlainCombinedReader } from './plain-combined';

const NOW = Date.parse('2026-11-25T12:00:00Z');
const HOST = 'www.acme.example';
const classifier = new BotClassifier();

/** A seeded generator (the same lines on every run). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const AGENTS = [
  ...botCatalogue().flatMap((e) => e.tokens.map((t) => `Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ${t}/1.0; +https://example.com/bot)`)),
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (compatible; GPTBotX/1.0)',
  'NotGPTBot/1.0',
  'Mozilla/5.0 (compatible; MyGPTBot-Clone/1.0)',
  'Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)',
  'gptbot',
  'CCBot/2.0 (https://commoncrawl.org/faq/)',
  '-',
  '',
];
const REFERERS = [
  '-',
  '',
  'https://www.google.com/',
  'https://www.google.com/search?q=x',
  'android-app://com.google.android.gm/',
  'utm_source=chatgpt.com',
  ...AI_REFERRERS.flatMap((r) => r.hosts.flatMap((h) => [`https://${h}/`, `http://WWW.${h.toUpperCase()}:443/x`, `https://${h}`, `https://${h}.evil.example/`, `https://x${h}/`, `ftp+x://www.${h}?q`, `https//${h}/`])),
];
const PATHS = ['/', '*', '/docs/1', '/pricing?utm_source=chatgpt.com', '/p?a=1&utm_source=perplexity.ai&b', '/p?utm_source=newsletter', '/p?xutm_source=chatgpt.com', '/a?b?utm_source=claude.ai', '/caf%C3%A9', 'x', '', '/café'];
const TIMES = ['24/Nov/2026:08:15:02 +0100', '24/Nov/2026:08:15:59 +0100', '24/Nov/2026:08:16:00 -0530', '31/Feb/2026:08:15:02 +0000', '24/Nov/2031:08:15:02 +0000', '24/Nov/1999:08:15:02 +0000', '24/Nov/2026:08:15:60 +0000', '24/Nov/2026:24:00:00 +0000', '24/Nov/2026:08:15:02 +1500', '24/Nov/2026:8:15:02 +0000', '24/nov/2026:08:15:02 +0000'];
const IPS = ['20.171.206.12', '1.2.3.4', '0.0.0.0', '255.255.255.255', '10.0.0.1', '256.1.1.1', '01.2.3.4', '1.2.3', '2001:db8::1', '::ffff:1.2.3.4', 'acme.example:443 1.2.3.4', '1.2.3.4.5'];
/** What a mutation puts into a line: what makes a line not plain, or not a line of the format. */
const NOISE = [' ', '"', '\\', '[', ']', ':', '-', '0', '9', 'A', 'z', '?', '/', '#', '\t', '\u007f', '\u0001', 'é', '日', '\r', '\\x22', '\\"', '  ', 'utm_source=chatgpt.com'];

function line(rnd: () => number): string {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  // Mostly the first (valid) choices, sometimes any.
  const mostly = <T>(valid: number, xs: readonly T[]) => (rnd() < 0.9 ? xs[Math.floor(rnd() * valid)] : pick(xs));
  const path = () => mostly(8, PATHS);
  const request = mostly(3, [`GET ${path()} HTTP/1.1`, `POST ${path()}`, `GET ${path()} `, `get ${path()} HTTP/1.1`, `ABCDEFGHIJKLMNOPQ /`, `GET  /`, `GET / HTTP/1.1 x`, '-']);
  return `${mostly(5, IPS)} ${pick(['-', 'x'])} ${pick(['-', 'frank'])} [${mostly(3, TIMES)}] "${request}" ${mostly(2, ['200', '404', '099', '600', '20'])} ${mostly(4, ['5120', '-', '0', '123456789012345', '1234567890123456', ''])} "${pick(REFERERS)}" "${pick(AGENTS)}"${mostly(3, ['', ' 0.123 "x"', ' "-"', '\t1'])}`;
}

function mutate(text: string, rnd: () => number): string {
  let s = text;
  for (let k = Math.floor(rnd() * 3); k > 0; k--) {
    const at = Math.floor(rnd() * (s.length + 1));
    const noise = NOISE[Math.floor(rnd() * NOISE.length)];
    s = rnd() < 0.5 ? s.slice(0, at) + noise + s.slice(at) : s.slice(0, at) + noise + s.slice(at + 1);
  }
  return s;
}

describe('PlainCombinedReader, against the text parser', () => {
  const lines = (() => {
    const rnd = random(33);
    const out: string[] = [];
    for (let i = 0; i < 24_000; i++) out.push(i % 2 ? mutate(line(rnd), rnd) : line(rnd));
    return out;
  })();

  it('reads a line (yes) only when the text parser gives a visit, and then gives that same visit', () => {
    const text = logParser('nginx', { host: HOST, now: () => NOW });
    const reader = PlainCombinedReader.forHost(HOST)!;
    let read = 0;
    let visits = 0;
    for (const l of lines) {
      const buf = Buffer.from(`${l}\n`, 'utf8');
      const r = text.parse(l);
      if ('visit' in r) visits++;
      if (!reader.read(buf, 0, buf.length - 1, NOW)) continue;
      read++;
      expect({ line: l, visit: reader.visit(reader.userAgent(), reader.referer()) }).toEqual({ line: l, visit: 'visit' in r ? r.visit : r });
    }
    // Most lines the text parser accepts are plain, and every kind of line was met.
    expect(read).toBeGreaterThan(0.8 * visits);
    expect(visits).toBeGreaterThan(2_000);
    expect(lines.length - visits).toBeGreaterThan(5_000);
  });

  it('reads a line within a larger read (its end given, not the read end) alike', () => {
    const reader = PlainCombinedReader.forHost(HOST)!;
    const text = logParser('nginx', { host: HOST, now: () => NOW });
    const some = lines.slice(0, 2_000);
    const buf = Buffer.from(some.join('\n') + '\n', 'utf8');
    let start = 0;
    for (const l of some) {
      const end = buf.indexOf(10, start);
      if (reader.read(buf, start, end, NOW)) {
        const r = text.parse(l);
        expect('visit' in r && r.visit).toEqual(reader.visit(reader.userAgent(), reader.referer()));
      }
      start = end + 1;
    }
  });

  it('drops only what the service keeps nothing of: the classifier verdict, referer and utm_source filters are never wrong', () => {
    const reader = PlainCombinedReader.forHost(HOST)!;
    const rnd = random(7);
    const isBot = (ua: string) => classifier.classify(ua) !== null;
    let bots = 0;
    let referrals = 0;
    for (let i = 0; i < 20_000; i++) {
      const ref = i % 3 ? REFERERS[i % REFERERS.length] : mutate(REFERERS[i % REFERERS.length], rnd);
      const ua = i % 2 ? AGENTS[i % AGENTS.length] : mutate(AGENTS[i % AGENTS.length], rnd);
      const path = i % 2 ? PATHS[i % PATHS.length] : mutate(PATHS[i % PATHS.length], rnd);
      const l = `1.2.3.4 - - [24/Nov/2026:08:15:02 +0100] "GET ${path} HTTP/1.1" 200 1 "${ref}" "${ua}"`;
      const buf = Buffer.from(l, 'utf8');
      if (!reader.read(buf, 0, buf.length, NOW)) continue;
      const visit = reader.visit(reader.userAgent(), reader.referer());
      expect(reader.agentVerdict(isBot)).toBe(isBot(visit.userAgent));
      if (isBot(visit.userAgent)) bots++;
      if (aiReferralSource(visit.referer) !== null) {
        referrals++;
        expect({ l, may: reader.refererMayBeAi() }).toEqual({ l, may: true });
      }
      if (utmAiSource(visit.path) !== null) expect({ l, names: reader.queryNamesUtm() }).toEqual({ l, names: true });
    }
    expect(bots).toBeGreaterThan(1_000);
    expect(referrals).toBeGreaterThan(500);
  });

  it('tells apart user agents whose verdicts it remembers, past its bound', () => {
    const reader = PlainCombinedReader.forHost(HOST)!;
    const isBot = (ua: string) => classifier.classify(ua) !== null;
    for (let i = 0; i < 12_000; i++) {
      const ua = i % 5 === 0 ? `Mozilla/5.0 (compatible; GPTBot/${i})` : `Mozilla/5.0 (compatible; Browser/${i})`;
      const buf = Buffer.from(`1.2.3.4 - - [24/Nov/2026:08:15:02 +0100] "GET / HTTP/1.1" 200 1 "-" "${ua}"`, 'utf8');
      expect(reader.read(buf, 0, buf.length, NOW)).toBe(true);
      expect(reader.agentVerdict(isBot)).toBe(i % 5 === 0);
    }
  });

  it('tells apart user agents of one key (their length and the bytes it samples alike), in turn', () => {
    const reader = PlainCombinedReader.forHost(HOST)!;
    const isBot = (ua: string) => classifier.classify(ua) !== null;
    // 31 bytes each, alike but for the third byte (the key samples bytes 7, 15, 23, 26 and 29 of 31).
    const bot = 'GPTBot/1.0 (compatible) abcdefg';
    const person = 'GPXBot/1.0 (compatible) abcdefg';
    expect([isBot(bot), isBot(person)]).toEqual([true, false]);
    for (let i = 0; i < 20; i++) {
      const ua = i % 2 === 0 ? bot : person;
      const buf = Buffer.from(`1.2.3.4 - - [24/Nov/2026:08:15:02 +0100] "GET / HTTP/1.1" 200 1 "-" "${ua}"`, 'utf8');
      expect(reader.read(buf, 0, buf.length, NOW)).toBe(true);
      expect({ i, verdict: reader.agentVerdict(isBot) }).toEqual({ i, verdict: i % 2 === 0 });
    }
  });

  it('reads nothing for a site with no host, or a host that is none', () => {
    expect(PlainCombinedReader.forHost(undefined)).toBeNull();
    expect(PlainCombinedReader.forHost('-')).toBeNull();
    expect(PlainCombinedReader.forHost('acme.example:99999')).toBeNull();
  });
});
