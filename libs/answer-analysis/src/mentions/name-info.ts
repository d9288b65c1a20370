import { PreparedEntity } from '../entities/prepare-entities';
import { CALENDAR_WORDS, commonWord } from './common-words';

/** A tracked name or alias with what the disambiguation needs to know about it. */
export interface NameInfo {
  readonly entity: PreparedEntity;
  readonly name: string;
  readonly lower: string;
  /** Made only of everyday English words ("Notion", "Home Chef", "smart"): a match needs evidence that it names the entity. */
  readonly ambiguous: boolean;
  /** The tracked spelling starts with a capital letter. */
  readonly capitalised: boolean;
  /** A day or month name ("Monday"): capitalisation is no evidence. */
  readonly calendar: boolean;
  /** Words of the tracked spelling. */
  readonly words: readonly string[];
}

const WORDY = /^[\p{L}' \-’]+$/u;

function isUpper(ch: string): boolean {
  return ch !== ch.toLowerCase();
}

export function describeName(entity: PreparedEntity, name: string): NameInfo {
  const lower = name.toLowerCase();
  const words = name.split(' ');
  let ambiguous = false;
  if (WORDY.test(name)) {
    ambiguous = true;
    for (const part of lower.split(/[ \-'’]+/)) {
      if (part.length <= 1 || (commonWord(part) === undefined && !CALENDAR_WORDS.has(part))) {
        ambiguous = false;
        break;
      }
    }
  }
  return {
    entity,
    name,
    lower,
    ambiguous,
    capitalised: isUpper(name.charAt(0)),
    calendar: words.length === 1 && CALENDAR_WORDS.has(lower),
    words,
  };
}
