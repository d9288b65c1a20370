/**
 * Fixture pages of the page-audit tests and benchmark: realistic HTML a brand's site serves,
 * each built to exercise one part of the score.
 */

const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

const productJsonLd = (origin: string) =>
  JSON.stringify({
    '@context': 'https://schema.org',
    '@graph': [
      {
        '@type': 'Product',
        name: 'Acme CRM Pro',
        description: 'A CRM for agencies of 5 to 200 people.',
        image: `${origin}/img/crm.png`,
        brand: { '@type': 'Brand', name: 'Acme' },
        offers: { '@type': 'Offer', price: '29.00', priceCurrency: 'USD', availability: 'https://schema.org/InStock' },
        aggregateRating: { '@type': 'AggregateRating', ratingValue: '4.7', reviewCount: '1250' },
      },
      {
        '@type': 'FAQPage',
        mainEntity: [
          { '@type': 'Question', name: 'How much does Acme CRM cost?', acceptedAnswer: { '@type': 'Answer', text: '$29 per user a month.' } },
          { '@type': 'Question', name: 'Is there a free trial?', acceptedAnswer: { '@type': 'Answer', text: 'Yes, 14 days.' } },
          { '@type': 'Question', name: 'Does it integrate with Gmail?', acceptedAnswer: { '@type': 'Answer', text: 'Yes, both ways.' } },
        ],
      },
      { '@type': 'WebPage', dateModified: day(12), datePublished: day(200) },
    ],
  });

const filler = (n: number) =>
  Array.from(
    { length: n },
    (_, k) =>
      `<p>Section ${k + 1}: teams use pipelines to see every deal at a glance. Reports show what moved this week. Reminders keep follow-ups on time, and the mobile app works offline.</p>`,
  ).join('\n');

/** A well-structured product page: fitting JSON-LD, answer first, figures, quotations, sources, fresh dates. */
export function productPage(origin: string): string {
  return `<!doctype html>
<html lang="en"><head>
<meta charset="utf-8">
<title>Acme CRM Pro pricing and features for agencies</title>
<meta name="description" content="Acme CRM Pro costs $29 per user a month and helps agencies of 5 to 200 people track every client deal in one place.">
<link rel="canonical" href="${origin}/products/crm">
<script type="application/ld+json">${productJsonLd(origin)}</script>
</head><body>
<header><nav><a href="/">Home</a> <a href="/pricing">Pricing</a> <a href="https://twitter.com/acme">Twitter</a></nav></header>
<main>
<h1>Acme CRM Pro</h1>
<p>Acme CRM Pro is a customer relationship manager for agencies that costs $29 per user a month and sets up in under 10 minutes.</p>
<p class="byline">Updated on ${new Date(Date.parse(day(12))).toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' })} · <time datetime="${day(12)}">${day(12)}</time></p>
<h2>What does it cost?</h2>
<p>Plans start at $29 per user a month; 87% of customers pick the annual plan and save 20%. Over 12,000 teams use it.</p>
<h2>What do customers say?</h2>
<blockquote>“We closed 35% more deals in the first quarter after moving to Acme.” — Dana Reyes, COO at Northwind</blockquote>
<p>According to <a href="https://www.gartner.com/en/documents/crm">Gartner</a>, agencies lose 14 hours a month to manual reporting; <a href="https://hbr.org/crm-study">Harvard Business Review</a> and <a href="https://www.forrester.com/report/crm">Forrester</a> found similar figures.</p>
<q>Setup took an afternoon and the whole team was in by Monday morning.</q>
<h2>How does it compare?</h2>
<p>It is 2 times faster to set up than the average CRM, measured over 300 onboarding sessions.</p>
<a class="add-to-cart" href="/checkout?plan=pro">Buy now</a>
<h2>Frequently asked questions</h2>
<h3>How much does Acme CRM cost?</h3><p>$29 per user a month, billed yearly.</p>
<h3>Is there a free trial?</h3><p>Yes, a 14 day trial with every feature.</p>
<h3>Does it integrate with Gmail?</h3><p>Yes, emails sync both ways within a minute.</p>
${filler(6)}
</main>
<footer><p>© Acme 2026</p></footer>
</body></html>`;
}

/** The product page with its JSON-LD broken (a trailing comma). */
export function brokenJsonLdPage(origin: string): string {
  return productPage(origin).replace(/<script type="application\/ld\+json">[\s\S]*?<\/script>/, '<script type="application/ld+json">{"@context": "https://schema.org", "@type": "Product", "name": "Acme CRM Pro",}</script>');
}

/** A thin blog post: no structured data, no figures, no sources, an old date, long sentences. */
export function thinArticle(): string {
  return `<!doctype html><html><head><title>Blog</title></head><body>
<h1>Thoughts</h1><h1>More thoughts</h1>
<div>Welcome to our blog where we share thoughts about many things that matter to us and to the people who work with us every day in the many places where we are.</div>
<p>Posted on January 3, 2019</p>
<p>We think that the way in which organisations consider their relationships with the individuals and institutions that they serve, notwithstanding the considerable complexity inherent in contemporary commercial environments, deserves substantially more deliberate reflection than it conventionally receives.</p>
</body></html>`;
}

/** A page of about `bytes` of realistic markup (the benchmark's 50 KB pages). */
export function sizedPage(origin: string, k: number, bytes = 50_000): string {
  const head = productPage(origin).replace('Acme CRM Pro</h1>', `Acme CRM Pro, page ${k}</h1>`);
  const parts = [head.replace('</main>', '')];
  let size = head.length;
  let n = 0;
  while (size < bytes) {
    const chunk = `<section><h3>Topic ${k}.${n}</h3><p>In ${2020 + (n % 6)}, ${10 + (n % 80)}% of the ${n + 3} agencies we surveyed said reporting took <strong>${n % 9} hours</strong> a week. <a href="https://example.org/study/${n}">The study</a> lists the method; “it changed how we plan” said one of them.</p><ul><li>Pipelines</li><li>Reports</li><li>Reminders</li></ul></section>\n`;
    parts.push(chunk);
    size += chunk.length;
    n++;
  }
  parts.push('</main></body></html>');
  return parts.join('');
}
