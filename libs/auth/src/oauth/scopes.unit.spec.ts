import { requestedScopes } from './scopes';

describe('requested OAuth scopes', () => {
  it('defaults to everything allowed and keeps a subset', () => {
    expect(requestedScopes(undefined, ['read:brands', 'read:usage'])).toEqual(['read:brands', 'read:usage']);
    expect(requestedScopes('read:usage  read:usage', ['read:brands', 'read:usage'])).toEqual(['read:usage']);
  });

  it('is invalid_scope for unknown or excess scopes', () => {
    expect(() => requestedScopes('read:nothing', ['read:brands'])).toThrow(expect.objectContaining({ code: 'invalid_scope', status: 400 }));
    expect(() => requestedScopes('read:brands read:usage', ['read:brands'])).toThrow(expect.objectContaining({ code: 'invalid_scope' }));
    expect(() => requestedScopes('all', ['read:brands'])).toThrow(expect.objectContaining({ code: 'invalid_scope' }));
  });
});
