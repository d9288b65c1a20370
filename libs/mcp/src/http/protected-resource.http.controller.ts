import { Controller, Get, Header, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ALL_SCOPES, Public } from '@libs/auth';
import { MCP_PATH, publicOrigin } from './mcp-challenge';

/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728) of the MCP endpoint, and the authorization
 * server's metadata (RFC 8414) it points to: what an MCP client reads after a 401 to find where
 * to get a token.
 */
@ApiTags('MCP')
@Controller('.well-known')
export class ProtectedResourceController {
  @Get('oauth-protected-resource/mcp')
  @Public()
  @Header('Cache-Control', 'public, max-age=3600')
  @ApiOperation({ operationId: 'mcp_protected_resource', summary: 'RFC 9728 metadata of the MCP endpoint', description: 'Its resource identifier, authorization server and bearer method: where an MCP client goes after a 401 from /mcp.' })
  @ApiOkResponse({ description: 'The metadata document' })
  resource(@Req() request: FastifyRequest): Record<string, unknown> {
    const origin = publicOrigin(request);
    return {
      resource: `${origin}${MCP_PATH}`,
      authorization_servers: [origin],
      // No scopes_supported here (optional in RFC 9728): MCP clients ask for exactly that list, and a
      // client holding fewer scopes would get invalid_scope; asking for none grants the client's own.
      bearer_methods_supported: ['header'],
      resource_name: 'AI visibility MCP server',
      resource_documentation: `${origin}/docs`,
    };
  }

  @Get('oauth-authorization-server')
  @Public()
  @Header('Cache-Control', 'public, max-age=3600')
  @ApiOperation({ operationId: 'oauth_authorization_server', summary: "RFC 8414 metadata of the service's OAuth authorization server", description: 'Its issuer, endpoints (authorize, token, revoke), grants, PKCE method and scopes.' })
  @ApiOkResponse({ description: 'The metadata document' })
  authorizationServer(@Req() request: FastifyRequest): Record<string, unknown> {
    const origin = publicOrigin(request);
    return {
      issuer: origin,
      authorization_endpoint: `${origin}/api/oauth/authorize`,
      token_endpoint: `${origin}/api/oauth/token`,
      revocation_endpoint: `${origin}/api/oauth/revoke`,
      grant_types_supported: ['authorization_code', 'client_credentials', 'refresh_token'],
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
      revocation_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
      scopes_supported: [...ALL_SCOPES],
      protected_resources: [`${origin}${MCP_PATH}`],
    };
  }
}
