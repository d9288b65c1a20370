import { botCatalogue } from '../domain/bot-catalogue';

const names = new Map(botCatalogue().flatMap((e) => [[e.name.toLowerCase(), e.name] as const, [e.id, e.name] as const]));

/** The catalogue's spelling of a bot name given in any case (`gptbot` → `GPTBot`); an unknown name as given; null for none. */
export function canonicalBotName(name: string | undefined): string | null {
  if (name === undefined) return null;
  return names.get(name.trim().toLowerCase()) ?? name.trim();
}
