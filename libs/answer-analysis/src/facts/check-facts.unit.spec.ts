import { checkFacts } from './check-facts';

const facts = { foundedYear: 2012, startingPrice: { amount: 12, currency: 'USD' as const }, headquarters: 'Berlin, Germany' };
const check = (s: string) => checkFacts([s], ['Acme'], ['Globex'], facts).map((c) => [c.fact, c.claimed, c.agrees]);

describe('brand facts in answers', () => {
  it('finds founding years, starting prices and headquarters about the brand, and checks them', () => {
    expect(check('Acme was founded in 2012 and plans start at $12 a month.')).toEqual([
      ['foundedYear', '2012', true],
      ['startingPrice', '$12', true],
    ]);
    expect(check('Acme, established back in 2009, is headquartered in Munich.')).toEqual([
      ['foundedYear', '2009', false],
      ['headquarters', 'Munich', false],
    ]);
    expect(check('Acme is based in Berlin and costs $15/month.')).toEqual([
      ['headquarters', 'Berlin', true],
      ['startingPrice', '$15', false],
    ]);
    expect(check('Pricing for Acme starts from €12.')).toEqual([['startingPrice', '€12', false]]);
    expect(check('Acme is available from $12.00 per seat.')).toEqual([['startingPrice', '$12.00', true]]);
  });

  it("leaves other entities' claims and sentences without the brand alone", () => {
    expect(check('Acme is newer; Globex was founded in 2005 and starts at $30.')).toEqual([]);
    expect(check('Globex was founded in 2005.')).toEqual([]);
    expect(check('Acme is great value.')).toEqual([]);
  });

  it('checks only registered facts', () => {
    expect(checkFacts(['Acme was founded in 2001.'], ['Acme'], [], {})).toEqual([]);
  });
});
