/** English names of a market's parts, for the instructions of engines that take the market as text. */

let languageNames: Intl.DisplayNames | undefined;
/** The language's English name (`de` → German, `pt-BR` → Brazilian Portuguese), for instructions; the tag itself when unnamed. */
export function languageName(tag: string): string {
  languageNames ??= new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
  return languageNames.of(tag) ?? tag;
}

let regionNames: Intl.DisplayNames | undefined;

/** The country's English name (`DE` → Germany); the code itself when unnamed. */
export function countryName(code: string): string {
  regionNames ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  return regionNames.of(code) ?? code;
}

/** The ISO 3166-1 alpha-2 country of a market, as the providers' `user_location` takes it, or null. */
export function marketCountry(market: { readonly country: string | null } | undefined): string | null {
  return market?.country ?? null;
}

/**
 * The instruction saying the market in words, for what an API has no field for: the language to
 * answer in (every provider: none takes it as a parameter) and, where `withCountry`, the country
 * (Gemini: its Google Search grounding takes no location). Null when there is nothing to say.
 */
export function marketInstruction(market: { readonly country: string | null; readonly language: string | null } | undefined, withCountry: boolean): string | null {
  const parts: string[] = [];
  if (withCountry && market?.country) parts.push(`The user is in ${countryName(market.country)} (${market.country}); answer for someone there.`);
  if (market?.language) parts.push(`Answer in ${languageName(market.language)} (${market.language}).`);
  return parts.length ? parts.join(' ') : null;
}
