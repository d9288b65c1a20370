import { createHash } from 'node:crypto';

/** A stable UUID-shaped id made from its parts (the same parts always give the same id). */
export function derivedUuid(...parts: string[]): string {
  const h = createHash('md5').update(parts.join('/')).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}
