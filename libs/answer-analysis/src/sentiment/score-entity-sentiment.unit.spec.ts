import { analyzeAnswer } from '../analyze-answer';
import { TrackedEntity } from '../types';

const entities: TrackedEntity[] = [
  { id: 'brand', kind: 'brand', name: 'Alphasoft' },
  { id: 'c1', kind: 'competitor', name: 'Bravosoft' },
];
const labels = (answer: string): Record<string, string | undefined> =>
  Object.fromEntries(analyzeAnswer({ answer, entities }).entities.map((e) => [e.entityId, e.sentiment?.label]));

describe('entity sentiment', () => {
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
