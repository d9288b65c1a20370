import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { ACCESS_TOKEN_TTL_SECONDS } from './lifetimes';

export const GRANT_TYPES = ['authorization_code', 'client_credentials', 'refresh_token'] as const;
export type GrantType = (typeof GRANT_TYPES)[number];

const FORM_NOTE = 'Sent as JSON or application/x-www-form-urlencoded.';

/** POST /api/oauth/token (RFC 6749 §4.1.3, §4.4.2, §6). Validated by hand: failures are `invalid_request`. */
export class TokenRequestDto {
  @ApiProperty({ enum: GRANT_TYPES })
  @IsIn(GRANT_TYPES)
  grant_type!: GrantType;

  @ApiPropertyOptional({ description: `The client's id. Required unless sent with HTTP Basic. ${FORM_NOTE}` })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  client_id?: string;

  @ApiPropertyOptional({ description: "The client's secret. Required unless sent with HTTP Basic (never both)." })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  client_secret?: string;

  @ApiPropertyOptional({ description: 'authorization_code: the code from the authorization response (single-use, 10 minutes).' })
  @ValidateIf((o: TokenRequestDto) => o.grant_type === 'authorization_code')
  @IsNotEmpty({ message: 'code is required for the authorization_code grant' })
  @IsString()
  @MaxLength(500)
  code?: string;

  @ApiPropertyOptional({ description: 'authorization_code: the redirect_uri of the authorization request, exactly.' })
  @ValidateIf((o: TokenRequestDto) => o.grant_type === 'authorization_code')
  @IsNotEmpty({ message: 'redirect_uri is required for the authorization_code grant' })
  @IsString()
  @MaxLength(2000)
  redirect_uri?: string;

  @ApiPropertyOptional({ description: 'authorization_code: the PKCE code_verifier (RFC 7636) whose S256 hash was the code_challenge.', minLength: 43, maxLength: 128 })
  @ValidateIf((o: TokenRequestDto) => o.grant_type === 'authorization_code')
  @IsNotEmpty({ message: 'code_verifier is required for the authorization_code grant (PKCE S256)' })
  @IsString()
  @MaxLength(128)
  code_verifier?: string;

  @ApiPropertyOptional({ description: 'refresh_token: the refresh token (rotated on use).' })
  @ValidateIf((o: TokenRequestDto) => o.grant_type === 'refresh_token')
  @IsNotEmpty({ message: 'refresh_token is required for the refresh_token grant' })
  @IsString()
  @MaxLength(500)
  refresh_token?: string;

  @ApiPropertyOptional({
    description: "Space-separated scopes. client_credentials: a subset of the client's (default: all of them); refresh_token: a subset of the grant's.",
    example: 'read:brands read:opportunities',
  })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  scope?: string;
}

export class TokenResponseDto {
  @ApiProperty({ description: 'Opaque bearer token; send it as `Authorization: Bearer <token>`.' }) access_token!: string;
  @ApiProperty({ enum: ['Bearer'] }) token_type!: 'Bearer';
  @ApiProperty({ example: ACCESS_TOKEN_TTL_SECONDS, description: 'Lifetime of the access token in seconds.' }) expires_in!: number;
  @ApiPropertyOptional({ description: 'authorization_code and refresh_token grants only (30 days; rotated on use). client_credentials never gets one.' })
  refresh_token?: string;
  @ApiProperty({ example: 'read:brands read:opportunities', description: 'The granted scopes, space-separated.' }) scope!: string;
}

export class RevokeRequestDto {
  @ApiProperty({ description: 'An access or refresh token issued to this client. Revoking a refresh token revokes its whole family.' }) token!: string;
  @ApiPropertyOptional({ enum: ['access_token', 'refresh_token'], description: 'Accepted and ignored (the token is found either way).' }) token_type_hint?: string;
  @ApiPropertyOptional({ description: 'Required unless sent with HTTP Basic.' }) client_id?: string;
  @ApiPropertyOptional({ description: 'Required unless sent with HTTP Basic.' }) client_secret?: string;
}

class ContractErrorBody {
  @ApiProperty({ example: 'invalid_grant', description: 'The RFC 6749 error code' }) code!: string;
  @ApiProperty() message!: string;
}

/** Error of an OAuth endpoint to a JSON request (the contract's error object). */
export class OAuthJsonErrorDto {
  @ApiProperty({ type: ContractErrorBody }) error!: ContractErrorBody;
}

/** Error of an OAuth endpoint to a form-encoded request (RFC 6749 §5.2). */
export class OAuthFormErrorDto {
  @ApiProperty({ example: 'invalid_grant' }) error!: string;
  @ApiProperty() error_description!: string;
}

class AuthorizationRequestData {
  @ApiProperty() clientId!: string;
  @ApiProperty({ type: String, nullable: true }) clientName!: string | null;
  @ApiProperty() redirectUri!: string;
  @ApiProperty({ type: [String] }) scopes!: string[];
  @ApiPropertyOptional() state?: string;
  @ApiProperty({ example: { method: 'POST', url: '/api/oauth/authorize', credential: 'X-API-Key' }, description: 'How the resource owner approves' })
  approve!: { method: 'POST'; url: string; credential: 'X-API-Key' };
}

export class AuthorizationRequestDto {
  @ApiProperty({ type: AuthorizationRequestData }) data!: AuthorizationRequestData;
}
