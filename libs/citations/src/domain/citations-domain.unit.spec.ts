import { changeId, detectChanges, snapshotOf, type AnswerSnapshot, type SnapshotEntity } from './answer-changes';
import { discoverQuestions, questionKey } from './discovered-questions';

const brand = (mentioned: boolean, rank: number | null = null, sentiment: SnapshotEntity['sentiment'] = null): SnapshotEntity => ({ id: 'brand-1', name: 'Acme', kind: 'brand', mentioned, rank, sentiment });
const rival = (mentioned: boolean, rank: number | null = null): SnapshotEntity => ({ id: 'competitor-2', name: 'Globex', kind: 'competitor', mentioned, rank, sentiment: null });
const snap = (b: SnapshotEntity, c: SnapshotEntity = rival(false), domains: string[] = []): AnswerSnapshot => ({ brand: b, competitors: [c], brandDomains: domains });
const types = (a: AnswerSnapshot, b: AnswerSnapshot) => detectChanges(a, b).map((c) => `${c.type}:${c.severity}${c.domain ? `:${c.domain}` : ''}`);

describe('changes between two answers (DESIGN §14)', () => {
  it('nothing changed, nothing found', () => {
    expect(types(snap(brand(true, 2, 'neutral')), snap(brand(true, 2, 'neutral')))).toEqual([]);
  });

  it('the brand leaving an answer from the top 3 is mention_lost and dropped_from_top3, both high', () => {
    expect(types(snap(brand(true, 1, 'positive')), snap(brand(false)))).toEqual(['mention_lost:high', 'dropped_from_top3:high']);
    expect(types(snap(brand(true, 5, 'positive')), snap(brand(false)))).toEqual(['mention_lost:high']);
  });

  it('entering, leaving and moving within the top 3', () => {
    expect(types(snap(brand(false)), snap(brand(true, 3)))).toEqual(['mention_gained:low', 'entered_top3:low']);
    expect(types(snap(brand(true, 4)), snap(brand(true, 2)))).toEqual(['entered_top3:low']);
    expect(types(snap(brand(true, 2)), snap(brand(true, 4)))).toEqual(['dropped_from_top3:high']);
    expect(types(snap(brand(true, 1)), snap(brand(true, 3)))).toEqual(['rank_changed:medium']);
    expect(types(snap(brand(true, 6)), snap(brand(true, 4)))).toEqual(['rank_changed:low']);
    // Mentioned but unranked counts as outside the top 3.
    expect(types(snap(brand(true, 2)), snap(brand(true, null)))).toEqual(['dropped_from_top3:high']);
  });

  it('sentiment: two steps down is high, one step medium, up low', () => {
    expect(types(snap(brand(true, 1, 'positive')), snap(brand(true, 1, 'negative')))).toEqual(['sentiment_changed:high']);
    expect(types(snap(brand(true, 1, 'positive')), snap(brand(true, 1, 'neutral')))).toEqual(['sentiment_changed:medium']);
    expect(types(snap(brand(true, 1, 'negative')), snap(brand(true, 1, 'neutral')))).toEqual(['sentiment_changed:low']);
    expect(types(snap(brand(true, 1, 'positive')), snap(brand(true, 1, null)))).toEqual([]);
  });

  it("the brand's domains cited or no longer cited, one change each", () => {
    expect(types(snap(brand(true, 1), rival(false), ['a.example', 'b.example']), snap(brand(true, 1), rival(false), ['b.example', 'c.example']))).toEqual([
      'citation_gained:low:c.example',
      'citation_lost:medium:a.example',
    ]);
  });

  it('a competitor entering: medium when it ranks ahead of the brand or the brand is absent', () => {
    expect(types(snap(brand(true, 1)), snap(brand(true, 1), rival(true, 2)))).toEqual(['competitor_entered:low']);
    expect(types(snap(brand(true, 2)), snap(brand(true, 2), rival(true, 1)))).toEqual(['competitor_entered:medium']);
    expect(types(snap(brand(false)), snap(brand(false), rival(true, null)))).toEqual(['competitor_entered:medium']);
    expect(types(snap(brand(true, 1), rival(true, 2)), snap(brand(true, 1), rival(true, 3)))).toEqual([]);
  });

  it('ids name the answer, the type and the subject', () => {
    const [c] = detectChanges(snap(brand(true, 1), rival(false), ['a.example']), snap(brand(true, 1)));
    expect(changeId('9-3', c)).toBe('9-3:citation_lost:brand-1:a.example');
  });

  it('a snapshot keeps rank and sentiment only where the entity is mentioned, and the brand’s domains once', () => {
    const s = snapshotOf({
      entities: [
        { entityId: 'brand-1', kind: 'brand', name: 'Acme', mentioned: false, rank: 2, sentiment: 'positive' },
        { entityId: 'competitor-2', kind: 'competitor', name: 'Globex', mentioned: true, rank: 1, sentiment: 'neutral' },
      ],
      citations: [
        { domain: 'b.example', owner: 'brand' },
        { domain: 'a.example', owner: 'brand' },
        { domain: 'b.example', owner: 'brand' },
        { domain: 'x.example', owner: 'other' },
      ],
    });
    expect(s.brand).toMatchObject({ mentioned: false, rank: null, sentiment: null });
    expect(s.brandDomains).toEqual(['a.example', 'b.example']);
    expect(s.competitors[0]).toMatchObject({ rank: 1, sentiment: 'neutral' });
  });
});

describe('questions found in answers', () => {
  it('keys ignore case, accents, apostrophes and punctuation', () => {
    expect(questionKey("  What's the BEST   CRM, for café owners?")).toBe('whats the best crm for cafe owners');
  });

  it("takes the engine's related_questions, a follow-up section, and questions in the text; not the prompt asked", () => {
    const found = discoverQuestions({
      query: 'best crm?',
      raw: JSON.stringify({ related_questions: ['Is Acme free', 42, 'best CRM'] }),
      text: [
        '## Best CRM',
        'Acme leads. **Why does Acme lead?** Because of price. Best CRM?',
        '1. Acme',
        '',
        '### People also ask:',
        '- Does Globex have an app?',
        '* Which CRM is easiest to learn?',
        'See https://acme.example/faq?ref=1 for more. Is it on www.acme.example?',
      ].join('\n'),
    });
    expect(found.map((q) => [q.origin, q.question])).toEqual([
      ['follow_up', 'Is Acme free?'],
      ['answer_text', 'Why does Acme lead?'],
      ['follow_up', 'Does Globex have an app?'],
      ['follow_up', 'Which CRM is easiest to learn?'],
    ]);
  });

  it('ignores raw that is not JSON, too short or too long questions, and stays linear on hostile text', () => {
    expect(discoverQuestions({ query: 'q', raw: '{not json', text: 'Why? Is it? ' + `${'word '.repeat(60)}?` })).toEqual([]);
    const started = performance.now();
    // The longest answer the analysis keeps is 200,000 characters.
    discoverQuestions({ query: 'q', raw: null, text: `${'? '.repeat(25_000)}${'a'.repeat(50_000)}\n`.repeat(2) });
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('questions found in hostile answers', () => {
  it('stays linear on runs of quotes, spaces and markers', () => {
    const started = performance.now();
    for (const text of [`"${"'".repeat(200_000)}x?`, `a${' '.repeat(200_000)}b?`, `${'#'.repeat(200_000)}x`, `${'- '.repeat(100_000)}why is that so?`]) discoverQuestions({ query: 'q', raw: null, text });
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
