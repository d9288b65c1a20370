const KEY_ENTRY = /^([A-Za-z0-9_-]{1,32}):([A-Za-z0-9+/]{43}=)$/;

/** `<id>:<32 bytes in base64>` entries, comma-separated: the first seals, every one opens. Empty text: none. */
export function parseEncryptionKeys(text: string): { id: string; key: Buffer }[] {
  const keys = text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const m = KEY_ENTRY.exec(entry);
      if (!m) throw new Error('each key must be "<id>:<32 bytes in base64>" (ids: letters, digits, _ or -)');
      return { id: m[1], key: Buffer.from(m[2], 'base64') };
    });
  if (new Set(keys.map((k) => k.id)).size !== keys.length) throw new Error('two keys have the same id');
  return keys;
}
