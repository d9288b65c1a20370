import { analyzeAnswer } from '../analyze-answer';
import { normaliseUrl } from './normalise-url';

describe('normaliseUrl', () => {
  it('removes the fragment, utm_* parameters and a trailing slash, keeping other parameters', () => {
    expect(normaliseUrl('https://www.Example.com/a/b/?utm_source=x&id=3&UTM_medium=y#top')?.url).toBe('https://www.example.com/a/b?id=3');
    expect(normaliseUrl('https://trello.com/?utm_source=chatgpt.com')?.url).toBe('https://trello.com');
  });

  it('rejects what is not an http(s) URL', () => {
    expect(normaliseUrl('ftp://example.com')).toBeNull();
    expect(normaliseUrl('https://')).toBeNull();
    expect(normaliseUrl('not a url')).toBeNull();
    expect(normaliseUrl(`https://example.com/${'a'.repeat(100_000)}`)).toBeNull();
  });
});

describe('citations of an answer', () => {
  it('lists text URLs then provider URLs, de-duplicated, with domains and owners', () => {
    const a = analyzeAnswer({
      answer: 'See [pricing](https://www.hubspot.com/pricing?utm_source=chatgpt.com) and https://www.g2.com/crm/.',
      providerCitations: [{ url: 'https://www.hubspot.com/pricing#plans' }, { url: 'https://news.bbc.co.uk/x' }, { url: '::bad::' }],
      entities: [
        { id: 'brand', kind: 'brand', name: 'HubSpot', domains: ['hubspot.com'] },
        { id: 'c1', kind: 'competitor', name: 'G2', domains: ['g2.com'] },
      ],
    });
    expect(a.citations.map((c) => [c.url, c.domain, c.registrableDomain, c.source, c.owner.kind])).toEqual([
      ['https://www.hubspot.com/pricing', 'hubspot.com', 'hubspot.com', 'inline', 'brand'],
      ['https://www.g2.com/crm', 'g2.com', 'g2.com', 'inline', 'competitor'],
      ['https://news.bbc.co.uk/x', 'news.bbc.co.uk', 'bbc.co.uk', 'provider', 'other'],
    ]);
    expect(a.citations[0].alsoIn).toBe('provider');
    expect(a.invalidUrls).toEqual(['::bad::']);
  });
});
