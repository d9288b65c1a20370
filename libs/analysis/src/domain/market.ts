/*
 * A prompt's market (DESIGN §17): the country (ISO 3166-1 alpha-2, upper case) and the language
 * (BCP 47, canonical case) an AI engine is asked for. Both optional: none means the provider's
 * default. Requests' values are validated and normalised by libs/http's market rules.
 */

/** A market as stored and asked: each part null when not set. */
export interface Market {
  readonly country: string | null;
  readonly language: string | null;
}
