import { API_KEY_PREFIX, generateApiKey, isWellFormedApiKey, sha256 } from './api-key-format';

describe('API key format', () => {
  it('has the readable prefix, at least 128 random bits and a checksum', () => {
    const key = generateApiKey();
    expect(key.startsWith(API_KEY_PREFIX)).toBe(true);
    expect(key).toMatch(/^ak_live_[0-9A-Za-z]{39}$/);
    expect(isWellFormedApiKey(key)).toBe(true);
    const keys = new Set(Array.from({ length: 1000 }, generateApiKey));
    expect(keys.size).toBe(1000);
  });

  it('refuses a mistyped key offline (checksum)', () => {
    const key = generateApiKey();
    const flipped = key.slice(0, 12) + (key[12] === 'a' ? 'b' : 'a') + key.slice(13);
    expect(isWellFormedApiKey(flipped)).toBe(false);
    expect(isWellFormedApiKey('ak_live_short')).toBe(false);
    expect(isWellFormedApiKey('')).toBe(false);
    expect(isWellFormedApiKey(key + 'x')).toBe(false);
  });

  it('hashes with SHA-256', () => {
    expect(sha256('abc').toString('hex')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
