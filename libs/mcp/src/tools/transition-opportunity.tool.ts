import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import * as z from 'zod';
import { STATUSES, TransitionOpportunityCommand, opportunityApiError, toRecord } from '@libs/opportunities';
import { id, type McpTool, type ToolAnswer, type ToolContext } from '../mcp-tool';
import { opportunitySchema, opportunityView } from './opportunity-view';

const input = z.strictObject({
  opportunityId: id('The opportunity to move'),
  toStatus: z.enum(STATUSES).describe('The state to move to (explain_opportunity lists the allowed moves)'),
  expectedVersion: z.number().int().min(0).max(2_147_483_647).describe('The version you read it at: if it changed since, CONFLICT and nothing moves'),
  reason: z.string().min(1).max(2000).optional().describe('Why; kept in the history'),
  owner: z.string().min(1).max(200).optional().describe('Who owns the work (required to move to assigned unless already set)'),
});
const output = z.object({ opportunity: opportunitySchema });

/** POST /api/v1/opportunities/{id}/transition as a tool, with the expected version required. */
@Injectable()
export class TransitionOpportunityTool implements McpTool<typeof input, typeof output> {
  readonly name = 'transition_opportunity';
  readonly title = 'Move an opportunity';
  readonly description =
    'Moves an opportunity to another lifecycle state with the same rules as the API: INVALID_TRANSITION names the allowed moves, CONFLICT means it changed since the version you read (read it again, ask again). Recorded in its history with your credential as the actor.';
  readonly scope = 'write:opportunities' as const;
  readonly input = input;
  readonly output = output;
  readonly annotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };

  constructor(private readonly commands: CommandBus) {}

  async run({ principal, requestId }: ToolContext, args: z.infer<typeof input>): Promise<ToolAnswer<z.infer<typeof output>>> {
    let result;
    try {
      result = await this.commands.execute(
        new TransitionOpportunityCommand(args.opportunityId, args.toStatus, args.reason ?? null, args.owner ?? null, principal, requestId, args.expectedVersion),
      );
    } catch (error) {
      throw opportunityApiError(error, args.opportunityId);
    }
    const opportunity = opportunityView(JSON.parse(JSON.stringify(toRecord(result.state, new Date()))) as Record<string, unknown>);
    return { data: { opportunity }, summary: `Opportunity #${opportunity.id} is now ${opportunity.status} (version ${opportunity.version}).` };
  }
}
