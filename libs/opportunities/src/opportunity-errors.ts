import { ApiError } from '@libs/http';
import { OpportunityRuleError } from './domain';

/** A domain rule's refusal as the contract's error: 400 INVALID_TRANSITION, 404, 409. */
export function toApiError(error: unknown, id: number): unknown {
  if (!(error instanceof OpportunityRuleError)) return error;
  switch (error.rule) {
    case 'invalid_transition':
      return new ApiError(400, 'INVALID_TRANSITION', error.message, error.details);
    case 'owner_required':
      return ApiError.validation([{ field: 'owner', message: error.message }]);
    case 'not_found':
      return ApiError.notFound(`Opportunity ${id}`);
    case 'verification_not_expected':
    case 'verification_already_recorded':
    case 'outcome_not_expected':
    case 'outcome_already_final':
    case 'already_exists':
    case 'conflict':
      return new ApiError(409, 'CONFLICT', error.message, error.details);
  }
}
