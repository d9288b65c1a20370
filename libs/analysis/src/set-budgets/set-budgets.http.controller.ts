import { Body, Controller, Put } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { ApiError } from '@libs/http';
import { BudgetsRepository } from '../budgets.repository';
import { BudgetsResponse, SetBudgetsRequest } from '../budgets.dto';

@ApiTags('Usage and key validation')
@Controller('api/v1/budgets')
export class SetBudgetsController {
  constructor(private readonly budgets: BudgetsRepository) {}

  @Put()
  @RequireScope('write:budgets')
  @ApiOperation({
    operationId: 'budgets_set',
    summary: "Set the organisation's budgets (administrators)",
    description:
      'monthlyUsd and perRunUsd in USD: a field left out keeps its value, null removes the budget. Checked before each live question: one that would take the run or the month past its budget is not asked, and the run ends partial with reason budget_exhausted. Needs write:budgets and a credential not bound to a client (a client-bound one gets 403 INSUFFICIENT_SCOPE).',
  })
  @ApiOkResponse({ type: BudgetsResponse })
  @ApiBadRequestResponse({ description: 'A budget is negative, not a number, or a field is unknown' })
  async set(@CurrentPrincipal() p: Principal, @Body() body: SetBudgetsRequest): Promise<BudgetsResponse> {
    if (p.clientId !== null) throw new ApiError(403, 'INSUFFICIENT_SCOPE', "Budgets are the organisation's: a credential bound to a client may not set them");
    const budgets = await this.budgets.set(p.organizationId, { monthlyUsd: body.monthlyUsd, perRunUsd: body.perRunUsd });
    return { data: { ...budgets, currentMonth: await this.budgets.monthSpend(p.organizationId) } };
  }
}
