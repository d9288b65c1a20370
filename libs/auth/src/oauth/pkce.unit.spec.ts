import { isValidCodeChallenge, isValidCodeVerifier, s256Challenge, verifyPkce } from './pkce';

describe('PKCE S256', () => {
  // RFC 7636, Appendix B.
  const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
  const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

  it('computes the RFC 7636 example challenge', () => {
    expect(s256Challenge(verifier)).toBe(challenge);
    expect(verifyPkce(verifier, challenge)).toBe(true);
  });

  it('refuses a different verifier', () => {
    expect(verifyPkce(verifier.replace('d', 'e'), challenge)).toBe(false);
    expect(verifyPkce('a'.repeat(43), challenge)).toBe(false);
  });

  it('refuses malformed verifiers and challenges', () => {
    expect(isValidCodeVerifier('short')).toBe(false);
    expect(isValidCodeVerifier('a'.repeat(129))).toBe(false);
    expect(isValidCodeVerifier('a'.repeat(42) + '!')).toBe(false);
    expect(isValidCodeVerifier('a'.repeat(128))).toBe(true);
    expect(isValidCodeChallenge(challenge)).toBe(true);
    expect(isValidCodeChallenge(challenge + 'A')).toBe(false);
    expect(isValidCodeChallenge(challenge.slice(0, -1) + '=')).toBe(false);
    // "plain" would make the challenge equal the verifier: a 44+ character value is not an S256 challenge.
    expect(verifyPkce('a'.repeat(50), 'a'.repeat(50))).toBe(false);
  });
});
