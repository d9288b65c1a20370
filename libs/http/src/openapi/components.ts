import type { OpenAPIObject } from '@nestjs/swagger';

type Components = NonNullable<OpenAPIObject['components']>;
type SecuritySchemes = NonNullable<Components['securitySchemes']>;

export const TOKEN_URL = '/api/oauth/token';
export const AUTHORIZATION_URL = '/api/oauth/authorize';

/** What each scope grants; a scope missing here still gets a description made from its name. */
const SCOPE_DESCRIPTIONS: Record<string, string> = {
  'read:opportunities': 'Read opportunities, their history and the KPI summary',
  'write:opportunities': 'Report opportunities and move them through their lifecycle',
  'read:outcomes': 'Read verified outcomes of resolved opportunities',
  'read:citation-sources': 'Read citation-source domains and competitor-only domains',
  'read:agent-analytics': 'Read AI-bot crawl analytics',
  'read:metrics': 'Read channels, daily metrics, campaigns, content and audiences',
  'write:metrics': 'Connect, change, delete and sync channels, and import daily metrics',
  'read:webhooks': 'Read webhook subscriptions, event types and deliveries',
  'write:webhooks': 'Create, change, delete and test webhook subscriptions',
  'read:usage': 'Read API usage statistics of the organisation and its keys',
  'read:brands': 'Read brands and their competitor brands',
  'read:analysis': 'Read analysis runs and their results',
  'write:audits': 'Request audits of a brand',
  'read:visibility': 'Read share of voice, AEO and GEO metrics and the brand index',
  'read:citations': 'Read cited source records and citation trends',
  'read:prompts': 'Read prompt insights, discoveries, gaps and trends',
  'read:sentiment': 'Read sentiment by provider, summaries and trends',
  'read:changes': 'Read changes detected between analysis runs',
};

export function describeScope(scope: string): string {
  const known = SCOPE_DESCRIPTIONS[scope];
  if (known) return known;
  const [action, resource = ''] = scope.split(':');
  return `${action === 'write' ? 'Change' : 'Read'} ${resource.replace(/-/g, ' ')}`;
}

export function securitySchemes(scopes: readonly string[]): SecuritySchemes {
  const scopeMap = Object.fromEntries(scopes.map((s) => [s, describeScope(s)]));
  return {
    ApiKey: {
      type: 'apiKey',
      in: 'header',
      name: 'X-API-Key',
      description: 'An API key from the customer dashboard (or `npm run cli -- key create`). A key holds chosen scopes; each operation names the one it needs.',
    },
    OAuth2: {
      type: 'oauth2',
      description:
        'OAuth 2.0. Client credentials are accepted in the JSON body (as the contract says), form-encoded or with HTTP Basic. The authorization-code grant requires PKCE (S256). Refresh tokens rotate on use.',
      flows: {
        clientCredentials: { tokenUrl: TOKEN_URL, refreshUrl: TOKEN_URL, scopes: scopeMap },
        authorizationCode: { authorizationUrl: AUTHORIZATION_URL, tokenUrl: TOKEN_URL, refreshUrl: TOKEN_URL, scopes: scopeMap },
      },
    },
    basic: {
      type: 'http',
      scheme: 'basic',
      description: 'OAuth 2.0 client authentication (client_id and client_secret) on the token and revocation endpoints, as an alternative to sending them in the body.',
    },
    bearer: {
      type: 'http',
      scheme: 'bearer',
      description: 'An OAuth 2.0 access token from /api/oauth/token in `Authorization: Bearer <token>`; it must carry the scope the operation names (see its OAuth2 requirement).',
    },
  };
}

export const ERROR_SCHEMA = 'Error';
export const ERROR_REF = `#/components/schemas/${ERROR_SCHEMA}`;

/** The contract's error object (DESIGN §8). */
export const ERROR_SCHEMA_OBJECT = {
  type: 'object',
  description: 'Every error answer: `{ "error": { "code", "message", "details"? } }`.',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: {
          type: 'string',
          description:
            'Machine-readable code: VALIDATION_ERROR, INVALID_TRANSITION, UNAUTHORIZED, INSUFFICIENT_SCOPE, NOT_FOUND, CONFLICT, PAYLOAD_TOO_LARGE, UNSUPPORTED_MEDIA_TYPE, RATE_LIMITED, INTERNAL_ERROR, SERVICE_UNAVAILABLE, or an OAuth code (invalid_grant, invalid_client, ...).',
          example: 'VALIDATION_ERROR',
        },
        message: { type: 'string', description: 'Human-readable message', example: 'The request is not valid' },
        details: {
          type: 'object',
          description: 'Extra information; the keys depend on the code.',
          additionalProperties: true,
          properties: {
            fields: {
              type: 'array',
              description: 'VALIDATION_ERROR: each offending field and why',
              items: {
                type: 'object',
                required: ['field', 'message'],
                properties: { field: { type: 'string', example: 'limit' }, message: { type: 'string', example: 'limit must be an integer from 1 to 200' } },
              },
            },
            required: { type: 'string', description: 'INSUFFICIENT_SCOPE: the scope the operation needs', example: 'read:brands' },
            granted: { type: 'array', items: { type: 'string' }, description: 'INSUFFICIENT_SCOPE: the scopes the credential holds' },
          },
        },
      },
    },
  },
} as const;

const integerHeader = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });

/** Rate-limit headers (DESIGN §6) on every answer to an authenticated request. */
export const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': integerHeader("Requests per minute of the key's tier"),
  'X-RateLimit-Remaining': integerHeader('Requests possible right now (the tighter of the minute and day limits)'),
  'X-RateLimit-Reset': integerHeader('Whole seconds until that limit is fully restored'),
};
export const RATE_LIMIT_HEADER_REFS = Object.fromEntries(Object.keys(RATE_LIMIT_HEADERS).map((h) => [h, { $ref: `#/components/headers/${h}` }]));

const errorContent = (example: unknown) => ({ 'application/json': { schema: { $ref: ERROR_REF }, example } });

/** Standard error answers, referenced by every operation that can give them. */
export const ERROR_RESPONSES = {
  BadRequest: {
    description: 'The request is not valid (VALIDATION_ERROR, with `details.fields`); some operations use other 400 codes, e.g. INVALID_TRANSITION',
    content: errorContent({
      error: { code: 'VALIDATION_ERROR', message: 'The request is not valid', details: { fields: [{ field: 'limit', message: 'limit must be an integer from 1 to 200' }] } },
    }),
  },
  Unauthorized: {
    description: 'No credential, or an invalid, revoked or expired one (UNAUTHORIZED)',
    headers: { 'WWW-Authenticate': { description: 'The accepted schemes', schema: { type: 'string' } } },
    content: errorContent({ error: { code: 'UNAUTHORIZED', message: 'Authentication required: send an API key in X-API-Key or a bearer token' } }),
  },
  NotFound: {
    description: "No such resource in the caller's organisation (NOT_FOUND)",
    headers: RATE_LIMIT_HEADER_REFS,
    content: errorContent({ error: { code: 'NOT_FOUND', message: 'Brand 42 not found' } }),
  },
  TooManyRequests: {
    description: 'A rate limit of the key is exhausted (RATE_LIMITED)',
    headers: {
      'Retry-After': integerHeader('Whole seconds until one request is allowed again'),
      ...RATE_LIMIT_HEADER_REFS,
    },
    content: errorContent({ error: { code: 'RATE_LIMITED', message: 'Rate limit exceeded; retry after 12 seconds' } }),
  },
  RequestTimeout: {
    description: 'The request did not arrive in time (VALIDATION_ERROR); the connection is closed',
    content: errorContent({ error: { code: 'VALIDATION_ERROR', message: 'The request took too long to arrive' } }),
  },
  PayloadTooLarge: {
    description: 'The body is larger than 1 MiB (PAYLOAD_TOO_LARGE)',
    content: errorContent({ error: { code: 'PAYLOAD_TOO_LARGE', message: 'The request body is larger than 1 MiB' } }),
  },
  UnsupportedMediaType: {
    description: 'The body is not application/json (UNSUPPORTED_MEDIA_TYPE)',
    content: errorContent({ error: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Send application/json' } }),
  },
  HeadersTooLarge: {
    description: 'The request headers are larger than the server accepts (VALIDATION_ERROR); the connection is closed',
    content: errorContent({ error: { code: 'VALIDATION_ERROR', message: 'The request headers are larger than the server accepts' } }),
  },
  InternalError: {
    description: 'An unexpected error (INTERNAL_ERROR); it has been logged, and the answer shows no internals',
    content: errorContent({ error: { code: 'INTERNAL_ERROR', message: 'An unexpected error occurred; it has been logged' } }),
  },
};

export const responseRef = (name: keyof typeof ERROR_RESPONSES) => ({ $ref: `#/components/responses/${name}` });

/** 403 naming the operation's scope (an inline answer, because its example names the scope). */
export function forbiddenResponse(scope: string) {
  return {
    description: `The credential lacks the scope ${scope} (INSUFFICIENT_SCOPE; \`details.required\` names it)`,
    headers: RATE_LIMIT_HEADER_REFS,
    content: errorContent({ error: { code: 'INSUFFICIENT_SCOPE', message: `This operation needs the scope ${scope}`, details: { required: scope, granted: [] } } }),
  };
}
