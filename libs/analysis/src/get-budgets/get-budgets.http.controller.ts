import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, type Principal } from '@libs/auth';
import { BudgetsRepository } from '../budgets.repository';
import { BudgetsResponse } from '../budgets.dto';

@ApiTags('Usage and key validation')
@Controller('api/v1/budgets')
export class GetBudgetsController {
  constructor(private readonly budgets: BudgetsRepository) {}

  @Get()
  @RequireScope('read:usage')
  @ApiOperation({
    operationId: 'budgets_get',
    summary: "The organisation's budgets and this month's spend",
    description: 'Budgets in USD per UTC month and per run (null: none); a run that would exceed one stops asking and ends partial with reason budget_exhausted.',
  })
  @ApiOkResponse({ type: BudgetsResponse })
  async get(@CurrentPrincipal() p: Principal): Promise<BudgetsResponse> {
    const [budgets, currentMonth] = await Promise.all([this.budgets.of(p.organizationId), this.budgets.monthSpend(p.organizationId)]);
    return { data: { ...budgets, currentMonth } };
  }
}
