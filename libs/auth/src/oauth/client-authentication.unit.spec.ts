import { presentedClientCredentials } from './client-authentication';
import { readOAuthParams } from './oauth-params';

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

describe('OAuth client credentials', () => {
  it('reads them from the body', () => {
    expect(presentedClientCredentials(undefined, { client_id: 'a', client_secret: 'b' })).toEqual({ clientId: 'a', clientSecret: 'b', method: 'body' });
  });

  it('reads them from HTTP Basic, form-decoded', () => {
    expect(presentedClientCredentials(basic('oc_1', 's:e c'), {})).toEqual({ clientId: 'oc_1', clientSecret: 's:e c', method: 'basic' });
    expect(presentedClientCredentials(basic('oc_1', 's'), { client_id: 'oc_1' })).toMatchObject({ method: 'basic' });
  });

  it('is invalid_client (401) without credentials, with Basic named in WWW-Authenticate when Basic was tried', () => {
    expect(() => presentedClientCredentials(undefined, { client_id: 'a' })).toThrow(expect.objectContaining({ code: 'invalid_client', headers: {} }));
    expect(() => presentedClientCredentials('Basic Zm9v', {})).toThrow(
      expect.objectContaining({ code: 'invalid_client', headers: { 'WWW-Authenticate': expect.stringMatching(/^Basic/) } }),
    );
  });

  it('refuses two authentication methods at once', () => {
    expect(() => presentedClientCredentials(basic('a', 'b'), { client_secret: 'b' })).toThrow(expect.objectContaining({ code: 'invalid_request' }));
    expect(() => presentedClientCredentials(basic('a', 'b'), { client_id: 'x' })).toThrow(expect.objectContaining({ code: 'invalid_request' }));
  });
});

describe('OAuth parameters', () => {
  it('merges sources, drops empty values and refuses repeated or non-string ones', () => {
    expect(readOAuthParams({ a: '1', b: '' }, undefined, { a: '1', c: '2' })).toEqual({ a: '1', c: '2' });
    expect(() => readOAuthParams({ a: ['1', '2'] })).toThrow(expect.objectContaining({ code: 'invalid_request' }));
    expect(() => readOAuthParams({ a: 1 })).toThrow(expect.objectContaining({ code: 'invalid_request' }));
    expect(() => readOAuthParams('text')).toThrow(expect.objectContaining({ code: 'invalid_request' }));
    expect(() => readOAuthParams({ a: '1' }, { a: '2' })).toThrow(expect.objectContaining({ code: 'invalid_request' }));
  });
});
