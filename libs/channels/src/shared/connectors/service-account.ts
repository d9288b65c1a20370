import type { JWT } from 'google-auth-library';

/** A Google service-account key (the JSON file Google issues), as much of it as the connectors use. */
export interface ServiceAccountKey {
  client_email: string;
  private_key: string;
  private_key_id?: string;
}

/** Google's token endpoint, as google-auth-library (gtoken) posts to it; rewritten to the configured one. */
const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';

/** The auth library, loaded on the first sync (as the Google clients are): other processes do not pay its memory. */
let authLibrary: typeof import('google-auth-library') | undefined;
const auth = () => (authLibrary ??= require('google-auth-library') as typeof import('google-auth-library')); // eslint-disable-line @typescript-eslint/no-require-imports

/** Checks a service-account key's form; returns the problems (empty when fine). Never echoes the key. */
export function serviceAccountProblems(value: unknown): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return ['credentials must be a service-account key: a JSON object with client_email and private_key'];
  const v = value as Record<string, unknown>;
  const problems: string[] = [];
  if (typeof v.client_email !== 'string' || !/^[^@\s]{1,200}@[^@\s]{1,200}$/.test(v.client_email)) problems.push('credentials.client_email must be an e-mail address');
  if (typeof v.private_key !== 'string' || !/-----BEGIN (RSA )?PRIVATE KEY-----[\s\S]+-----END (RSA )?PRIVATE KEY-----/.test(v.private_key) || v.private_key.length > 10_000)
    problems.push('credentials.private_key must be a PEM private key');
  if (v.private_key_id !== undefined && (typeof v.private_key_id !== 'string' || v.private_key_id.length > 200)) problems.push('credentials.private_key_id must be a string');
  return problems;
}

/** Only the fields a connector needs, so nothing else of an uploaded key file is stored. */
export function serviceAccountKey(value: Record<string, unknown>): ServiceAccountKey {
  return {
    client_email: value.client_email as string,
    private_key: value.private_key as string,
    ...(typeof value.private_key_id === 'string' && { private_key_id: value.private_key_id }),
  };
}

/**
 * The official client's service-account credentials (google-auth-library JWT), its token requests
 * sent to `tokenUrl` (Google's own unless configured: a local fake in tests). The assertion's
 * audience stays Google's token URL, as the library signs it.
 */
export function serviceAccountClient(key: ServiceAccountKey, scopes: string[], tokenUrl: string, timeoutMs: number): JWT {
  // Node's own fetch: gaxios would otherwise load node-fetch (ESM) by a dynamic import, per process.
  const jwt = new (auth().JWT)({ email: key.client_email, key: key.private_key, keyId: key.private_key_id, scopes, transporterOptions: { fetchImplementation: fetch } });
  jwt.transporter.interceptors.request.add({
    resolved: async (config) => {
      if (String(config.url) === GOOGLE_TOKEN_URL && tokenUrl !== GOOGLE_TOKEN_URL) config.url = new URL(tokenUrl);
      config.timeout ??= timeoutMs;
      return config;
    },
  });
  return jwt;
}
