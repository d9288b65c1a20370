import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeysRepository, CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { ApiError, ParseIdPipe } from '@libs/http';
import { UsageQuery } from '../usage-window.query';
import { UsageRepository, usageWindow } from '../usage.repository';
import { KeyUsageResponse } from './key-usage.response.dto';

@ApiTags('Usage and key validation')
@Controller('api/v1/usage')
export class KeyUsageController {
  constructor(
    private readonly usage: UsageRepository,
    private readonly keys: ApiKeysRepository,
  ) {}

  @Get('keys/:keyId')
  @RequireScope('read:usage')
  @ApiOperation({ operationId: 'usage_key', summary: 'Daily usage of one API key of the organisation' })
  @ApiOkResponse({ type: KeyUsageResponse })
  @ApiBadRequestResponse({ description: 'keyId is not a positive integer, or days is out of range' })
  @ApiNotFoundResponse({ description: 'No such key in this organisation, or (for a credential bound to a client) a key other than itself' })
  async key(@CurrentPrincipal() p: Principal, @Param('keyId', ParseIdPipe) keyId: number, @Query() q: UsageQuery): Promise<KeyUsageResponse> {
    // A client-bound credential sees its own key's usage only.
    const visible = p.clientId === null ? await this.keys.belongsTo(keyId, p.organizationId) : p.keyId === keyId;
    if (!visible) throw ApiError.notFound(`API key ${keyId}`);
    return { data: await this.usage.keyUsage(p.organizationId, keyId, usageWindow(q.days)) };
  }
}
