import { analyzeAnswer } from '../analyze-answer';
import { TrackedEntity } from '../types';

const entities: TrackedEntity[] = ['Alpha', 'Bravo', 'Charlie', 'Delta'].map((name, i) => ({
  id: i === 0 ? 'brand' : `c${i}`,
  kind: i === 0 ? 'brand' : 'competitor',
  name: `${name}soft`,
}));
const order = (answer: string): readonly string[] => analyzeAnswer({ answer, entities }).order;

describe('ranking', () => {
  it('orders by first occurrence without a list', () => {
    expect(order('Charliesoft beats Alphasoft, and Bravosoft trails.')).toEqual(['c2', 'brand', 'c1']);
  });

  it('places entities by the first list item naming them, the others after by first occurrence', () => {
    const answer = 'Deltasoft and Alphasoft are known. Options:\n\n1. **Bravosoft** – good\n2. **Charliesoft** – better than Alphasoft\n\nAlso Deltasoft.';
    expect(order(answer)).toEqual(['c1', 'c2', 'brand', 'c3']);
  });

  it('uses table rows and headed sections', () => {
    expect(order('| Tool | Note |\n|---|---|\n| Charliesoft | x |\n| Alphasoft | y |\n\nBravosoft is fine.')).toEqual(['c2', 'brand', 'c1']);
    expect(order('Intro names Deltasoft.\n## Bravosoft\nText.\n## Alphasoft\nText about Charliesoft.')).toEqual(['c1', 'brand', 'c2', 'c3']);
  });

  it('ignores lists whose items do not lead with an option', () => {
    expect(order('Bravosoft is best.\n- **Tip:** compare prices\n- **Tip:** try Alphasoft first\n- Ask around')).toEqual(['c1', 'brand']);
  });
});
