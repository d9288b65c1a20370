import { analyzeAnswer } from '../analyze-answer';
import { TrackedEntity } from '../types';

const counts = (answer: string, entities: TrackedEntity[]): Record<string, number> =>
  Object.fromEntries(analyzeAnswer({ answer, entities }).entities.map((e) => [e.entityId, e.mentionCount]));

const hubspot: TrackedEntity = { id: 'brand', kind: 'brand', name: 'HubSpot', aliases: ['HubSpot CRM'], domains: ['hubspot.com'] };

describe('findMentions', () => {
  it('counts whole words case-insensitively, with possessives, and not inside other words', () => {
    expect(counts("HubSpot is fine. hubspot's free CRM; HUBSPOT. NotHubSpot and HubSpotter do not count.", [hubspot])).toEqual({ brand: 3 });
  });

  it('counts link text but not the URL, and ignores bare URLs', () => {
    expect(counts('Try [HubSpot](https://www.hubspot.com/hubspot) or see https://hubspot.com/pricing', [hubspot])).toEqual({ brand: 1 });
  });

  it('lets the longer tracked name take overlapping words', () => {
    const entities: TrackedEntity[] = [
      { id: 'brand', kind: 'brand', name: 'Apple', domains: [] },
      { id: 'c1', kind: 'competitor', name: 'Apple Music', domains: [] },
    ];
    expect(counts('Apple Music costs less than Spotify, and Apple makes it.', entities)).toEqual({ brand: 1, c1: 1 });
  });

  it('counts an alias and the name of the same entity once each, the longest first', () => {
    expect(counts('HubSpot CRM is free; HubSpot charges for seats.', [hubspot])).toEqual({ brand: 2 });
  });

  it('reads through bold, italics, headings, tables and footnote markers', () => {
    const answer = '## **HubSpot**\n| Tool | Price |\n|---|---|\n| *HubSpot* | Free |\n\nHubSpot[1][2] is popular.';
    expect(counts(answer, [hubspot])).toEqual({ brand: 3 });
  });

  it('tells ordinary words from names made of them', () => {
    const entities: TrackedEntity[] = [
      { id: 'brand', kind: 'brand', name: 'monday.com', aliases: ['Monday'], domains: ['monday.com'] },
      { id: 'c1', kind: 'competitor', name: 'Notion', domains: ['notion.so'] },
      { id: 'c2', kind: 'competitor', name: 'Bear', domains: ['bear.app'] },
    ];
    const answer = [
      'Notion is great for docs. Bear in mind that a notion of ownership matters.',
      'Meet every Monday, or on Monday at the latest. If you plan in Monday, use its boards.',
      'I prefer Bear for notes, and monday.com for projects.',
    ].join('\n');
    expect(counts(answer, entities)).toEqual({ brand: 2, c1: 1, c2: 1 });
  });

  it('uses the grammar after a capitalised common word at the start of a sentence', () => {
    const entities: TrackedEntity[] = [{ id: 'brand', kind: 'brand', name: 'Current', domains: [] }];
    expect(counts('Current is cheap. Current prices are high. Check the current rate, or use Current.', entities)).toEqual({ brand: 2 });
  });

  it('handles non-ASCII text and names', () => {
    const entities: TrackedEntity[] = [
      { id: 'brand', kind: 'brand', name: 'Škoda', domains: [] },
      { id: 'c1', kind: 'competitor', name: "De'Longhi", aliases: ['DeLonghi'], domains: [] },
    ];
    expect(counts('ŠKODA and Škodas? Škoda’s Enyaq beats De’Longhi… and DeLonghi’s café.', entities)).toEqual({ brand: 2, c1: 2 });
  });

  it('works with entities without aliases or domains', () => {
    expect(counts('Acme is good.', [{ id: 'brand', kind: 'brand', name: 'Acme' }])).toEqual({ brand: 1 });
  });
});
