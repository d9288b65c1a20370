import { countryProblem, languageProblem, normaliseCountry, normaliseLanguage } from './market';

describe('market rules (DESIGN §17)', () => {
  it('countries: assigned ISO 3166-1 alpha-2 codes in any case, stored upper case', () => {
    expect(['de', 'DE', 'De', 'us', 'BR', 'ax', 'ss', 'xk'].map(normaliseCountry)).toEqual(['DE', 'DE', 'DE', 'US', 'BR', 'AX', 'SS', null]);
    // Reserved or user-assigned codes, three letters, numbers: refused.
    for (const bad of ['EU', 'UK', 'UN', 'ZZ', 'XX', 'AA', 'DEU', '276', 'D', '', ' DE', 'DE ']) expect([bad, normaliseCountry(bad)]).toEqual([bad, null]);
    expect(countryProblem('DE')).toBeNull();
    expect(countryProblem('EU')).toBe('country must be an ISO 3166-1 alpha-2 country code, e.g. DE');
    expect(countryProblem(7)).toBe('country must be a string');
  });

  it('languages: well-formed BCP 47 tags of a known language, in canonical form', () => {
    expect(['de', 'DE', 'pt-br', 'PT-BR', 'zh-hant-tw', 'sr-Latn-RS', 'es-419', 'deu', 'iw', 'en-US'].map(normaliseLanguage)).toEqual(['de', 'de', 'pt-BR', 'pt-BR', 'zh-Hant-TW', 'sr-Latn-RS', 'es-419', 'de', 'he', 'en-US']);
    // Not well-formed, no such language, private use, extensions, too long: refused.
    for (const bad of ['de_DE', 'en-', '-en', 'zz', 'qaa', 'x-private', 'en-x-private', 'en-u-ca-gregory', 'i-klingon', 'e', 'english!', 'a'.repeat(36), '']) {
      expect([bad, normaliseLanguage(bad)]).toEqual([bad, null]);
    }
    expect(languageProblem('pt-BR')).toBeNull();
    expect(languageProblem('zz')).toBe('language must be a BCP 47 language tag, e.g. de or pt-BR');
    expect(languageProblem(null)).toBe('language must be a string');
  });
});
