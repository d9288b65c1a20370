import { analyzeAnswer, createAnalyzer } from '../analyze-answer';
import { TrackedEntity } from '../types';

const entities: TrackedEntity[] = [
  { id: 'brand', kind: 'brand', name: 'Alphasoft' },
  { id: 'c1', kind: 'competitor', name: 'Bravosoft' },
];
/** Labels from the lexicon rules alone (no trained model): the evidence the model is trained on. */
const rules = createAnalyzer(entities, { sentimentModel: null });
const labels = (answer: string): Record<string, string | undefined> =>
  Object.fromEntries(rules.analyze({ answer }).entities.map((e) => [e.entityId, e.sentiment?.label]));
/** Labels from the shipped model. */
const modelLabels = (answer: string): Record<string, string | undefined> =>
  Object.fromEntries(analyzeAnswer({ answer, entities }).entities.map((e) => [e.entityId, e.sentiment?.label]));

describe('entity sentiment (shipped model)', () => {
  it('reads clear praise, warnings, negation and plain facts', () => {
    expect(modelLabels('Alphasoft is excellent and reliable. I would avoid Bravosoft: it is expensive and buggy.')).toEqual({ brand: 'positive', c1: 'negative' });
    expect(modelLabels('Alphasoft is not recommended for teams; its support is poor.').brand).toBe('negative');
    expect(modelLabels('Alphasoft is the best choice, while Bravosoft has had outages, breaches and complaints.')).toEqual({ brand: 'positive', c1: 'negative' });
    expect(modelLabels('Alphasoft has a plan for 10 users.')).toEqual({ brand: 'neutral', c1: undefined });
    expect(modelLabels('1. **Bravosoft** – A plan for teams. Skip it: overkill and expensive.\n2. **Alphasoft** – Great value.').c1).toBe('negative');
  });
});

describe('entity sentiment (lexicon rules)', () => {
  it('reads praise and warnings', () => {
    expect(labels('Alphasoft is excellent and reliable. I would avoid Bravosoft: it is expensive and buggy.')).toEqual({ brand: 'positive', c1: 'negative' });
  });

  it('handles negation', () => {
    expect(labels('Alphasoft is not recommended for teams; its support is poor.').brand).toBe('negative');
  });

  it('weights the clause after "but" more', () => {
    expect(labels('Alphasoft is powerful, but it is overkill, expensive and slow for a small team.').brand).toBe('negative');
    expect(labels('Alphasoft is a little pricey, but it is excellent, reliable and easy to use.').brand).toBe('positive');
  });

  it('attributes clauses to the entity they are about', () => {
    expect(labels('Alphasoft is the best choice, while Bravosoft has had outages, breaches and complaints.')).toEqual({ brand: 'positive', c1: 'negative' });
  });

  it('is neutral for plain listing and gives no sentiment to unmentioned entities', () => {
    expect(labels('Alphasoft has a plan for 10 users.')).toEqual({ brand: 'neutral', c1: undefined });
  });

  it('credits the body of a list item to the option it leads with', () => {
    expect(labels('1. **Bravosoft** – A plan for teams. Skip it: overkill and expensive.\n2. **Alphasoft** – Great value.').c1).toBe('negative');
  });
});
