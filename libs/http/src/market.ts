import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, ValidateBy, ValidateIf, type ValidationArguments } from 'class-validator';

/*
 * A market (DESIGN §17): the country (ISO 3166-1 alpha-2, upper case) and the language (BCP 47,
 * canonical case) an AI engine is asked for, and answers are filtered by. The one set of rules of
 * every request that names one: tracked prompts, audit requests, analytics filters.
 */

/** The officially assigned ISO 3166-1 alpha-2 codes (249). */
const ISO_3166_1_ALPHA_2 = new Set(
  (
    'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
    'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR ' +
    'GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP ' +
    'KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT ' +
    'MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW ' +
    'SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ ' +
    'UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
  ).split(' '),
);

export const MAX_LANGUAGE_LENGTH = 35;

/** A market as stored and asked: each part null when not set. */
export interface Market {
  readonly country: string | null;
  readonly language: string | null;
}

export const NO_MARKET: Market = Object.freeze({ country: null, language: null });

/** The country as stored (upper case), or null when the value is not an assigned ISO 3166-1 alpha-2 code. */
export function normaliseCountry(value: unknown): string | null {
  if (typeof value !== 'string' || !/^[A-Za-z]{2}$/.test(value)) return null;
  const code = value.toUpperCase();
  return ISO_3166_1_ALPHA_2.has(code) ? code : null;
}

export function countryProblem(value: unknown): string | null {
  if (typeof value !== 'string') return 'country must be a string';
  return normaliseCountry(value) === null ? 'country must be an ISO 3166-1 alpha-2 country code, e.g. DE' : null;
}

let languageNames: Intl.DisplayNames | undefined;

/**
 * The language tag in its canonical BCP 47 form (`pt-br` → `pt-BR`, `deu` → `de`), or null when
 * it is not a well-formed tag of a known language. Only language, script, region and variant
 * subtags are taken: extensions (`-u-`, `-t-`) and private use (`-x-`) say nothing to an engine.
 */
export function normaliseLanguage(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_LANGUAGE_LENGTH) return null;
  if (!/^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/.test(value)) return null;
  let tag: string;
  try {
    [tag] = Intl.getCanonicalLocales(value);
  } catch {
    return null;
  }
  if (tag === undefined || /-[a-wyzA-WYZ0-9]-|-x-/i.test(`${tag}-`)) return null;
  const locale = new Intl.Locale(tag);
  languageNames ??= new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
  // A well-formed tag of no language (`zz`, the private-use `qaa`-`qtz`) is refused.
  return languageNames.of(locale.language) === undefined ? null : tag;
}

export function languageProblem(value: unknown): string | null {
  if (typeof value !== 'string') return 'language must be a string';
  return normaliseLanguage(value) === null ? 'language must be a BCP 47 language tag, e.g. de or pt-BR' : null;
}

function marketRule(field: 'country' | 'language', normalise: (value: unknown) => string | null, problem: (value: unknown) => string | null): PropertyDecorator {
  return applyDecorators(
    // Normalised before validation when it is valid (de → DE, pt-br → pt-BR); anything else stays as sent and fails.
    Transform(({ value }: { value: unknown }) => normalise(value) ?? value),
    ValidateBy({
      name: field,
      validator: { validate: (value: unknown) => problem(value) === null, defaultMessage: (args?: ValidationArguments) => problem(args?.value) ?? `${field} is not valid` },
    }),
  );
}

const COUNTRY_DOC = { type: String, description: 'ISO 3166-1 alpha-2 country code (any case; stored upper case)', example: 'DE', minLength: 2, maxLength: 2 };
const LANGUAGE_DOC = { type: String, description: 'BCP 47 language tag (language, script, region; stored in canonical case)', example: 'pt-BR', minLength: 2, maxLength: MAX_LANGUAGE_LENGTH };

/** A body's `country`: optional; `null` (where `nullable`) clears it. */
export function CountryField(o: { nullable?: boolean; description?: string } = {}): PropertyDecorator {
  return applyDecorators(
    ValidateIf((_, v: unknown) => v !== undefined && !(o.nullable && v === null)),
    marketRule('country', normaliseCountry, countryProblem),
    ApiPropertyOptional({ ...COUNTRY_DOC, nullable: o.nullable ?? false, ...(o.description ? { description: o.description } : {}) }),
  );
}

/** A body's `language`: optional; `null` (where `nullable`) clears it. */
export function LanguageField(o: { nullable?: boolean; description?: string } = {}): PropertyDecorator {
  return applyDecorators(
    ValidateIf((_, v: unknown) => v !== undefined && !(o.nullable && v === null)),
    marketRule('language', normaliseLanguage, languageProblem),
    ApiPropertyOptional({ ...LANGUAGE_DOC, nullable: o.nullable ?? false, ...(o.description ? { description: o.description } : {}) }),
  );
}

/** The `country` filter of an analytics read: only answers asked for this country. */
export function CountryQuery(): PropertyDecorator {
  return applyDecorators(IsOptional(), marketRule('country', normaliseCountry, countryProblem), ApiPropertyOptional({ ...COUNTRY_DOC, description: 'Only answers asked for this country (ISO 3166-1 alpha-2)' }));
}

/** The `language` filter of an analytics read: only answers asked in this language. */
export function LanguageQuery(): PropertyDecorator {
  return applyDecorators(IsOptional(), marketRule('language', normaliseLanguage, languageProblem), ApiPropertyOptional({ ...LANGUAGE_DOC, description: 'Only answers asked in this language (BCP 47, e.g. de or pt-BR)' }));
}
