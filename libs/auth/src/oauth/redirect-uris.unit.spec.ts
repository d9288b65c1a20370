import { redirectUriProblem, withParameters } from './redirect-uris';

describe('redirect URIs', () => {
  it('accepts https, loopback http and private-use schemes', () => {
    for (const uri of ['https://app.example.com/cb', 'http://127.0.0.1:8080/cb', 'http://localhost/cb', 'com.example.app:/oauth']) {
      expect(redirectUriProblem(uri)).toBeNull();
    }
  });

  it('refuses relative, fragment, plain http and dangerous URIs', () => {
    for (const uri of ['/cb', 'https://app.example.com/cb#x', 'http://app.example.com/cb', 'javascript:alert(1)', 'https://u:p@example.com/']) {
      expect(redirectUriProblem(uri)).not.toBeNull();
    }
  });

  it('adds the response parameters to the existing query', () => {
    expect(withParameters('https://a.example/cb?x=1', { code: 'c d', state: undefined })).toBe('https://a.example/cb?x=1&code=c+d');
  });
});
