/**
 * Routes that serve files, not the API: the reference documentation (`/docs`, the OpenAPI
 * document) and the dashboard's page and assets (`/app`, whose page keeps its own state in the
 * query string). The walks over every registered route leave them out: the API's rules (a query
 * DTO, an OpenAPI operation) are not theirs.
 */
export const servesFilesNotApi = (url: string): boolean =>
  url === '/api/v1/openapi.json' || url === '/docs' || url.startsWith('/docs/') || url === '/app' || url.startsWith('/app/');
