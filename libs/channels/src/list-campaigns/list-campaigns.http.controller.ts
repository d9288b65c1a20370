import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { CAMPAIGN_EXAMPLE, page as examplePage } from '../shared/examples';
import { CampaignPage } from './list-campaigns.response.dto';
import { ListCampaignQuery } from './list-campaigns.request.dto';
import { ListCampaigns } from './list-campaigns.query';

@ApiTags('Channels')
@Controller('api/v1/campaigns')
export class ListCampaignController {
  constructor(private readonly listCampaign: ListCampaigns) {}

  @Get()
  @RequireScope('read:metrics')
  @ApiOperation({ operationId: 'campaigns_list', summary: 'Daily campaign rows of the connected channels (campaign, source, medium) with sessions, users, conversions and revenue' })
  @ApiOkResponse({ type: CampaignPage, example: examplePage(CAMPAIGN_EXAMPLE) })
  @ApiNotFoundResponse({ description: 'No client or brand the caller may see has this id' })
  list(@CurrentPrincipal() p: Principal, @Query() q: ListCampaignQuery): Promise<CampaignPage> {
    return this.listCampaign.read(p, q);
  }
}
