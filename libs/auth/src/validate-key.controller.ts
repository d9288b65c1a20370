import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope } from './decorators';
import type { Principal } from './principal';

class KeyValidation {
  @ApiProperty() valid!: boolean;
  @ApiProperty() organizationId!: number;
  @ApiProperty({ type: [String] }) scopes!: string[];
  @ApiProperty({ enum: ['free', 'standard', 'professional', 'enterprise'] }) tier!: string;
  @ApiProperty({ type: Number, nullable: true }) clientId!: number | null;
}

class KeyValidationResponse {
  @ApiProperty({ type: KeyValidation }) data!: KeyValidation;
}

@ApiTags('Usage and key validation')
@Controller('api/v1')
export class ValidateKeyController {
  /** Reports the caller's credential: organisation, scopes, tier, client binding. */
  @Post('validate-key')
  @HttpCode(200)
  @RequireScope(null)
  @ApiOperation({ summary: 'Validate the API key or token of this request', description: 'Needs no scope; 401 for an invalid, revoked or expired key.' })
  @ApiOkResponse({ type: KeyValidationResponse })
  validate(@CurrentPrincipal() p: Principal): KeyValidationResponse {
    return { data: { valid: true, organizationId: p.organizationId, scopes: [...p.scopes], tier: p.tier, clientId: p.clientId } };
  }
}
