import { ApiError } from '@libs/http';
import type { PromptWrite, TrackedPrompt } from './tracked-prompts.repository';

/** The stored prompt, or the 409 that says why it could not be stored. */
export function storedOrConflict(result: PromptWrite): TrackedPrompt {
  if ('prompt' in result) return result.prompt;
  if (result.conflict === 'duplicate') {
    throw new ApiError(409, 'CONFLICT', `The brand already tracks this query (prompt ${result.promptId})`, { promptId: result.promptId });
  }
  throw new ApiError(409, 'CONFLICT', `The brand has ${result.limit} active prompts, the most it may have; deactivate or remove one first`, { limit: result.limit });
}
