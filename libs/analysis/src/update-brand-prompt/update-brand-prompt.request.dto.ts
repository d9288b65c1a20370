import { Omittable } from '@libs/http';
import { PromptQueryField, PromptSettings } from '../prompt-fields';

/** PATCH: any of the fields; topic null clears it. */
export class UpdateBrandPromptRequest extends PromptSettings {
  @Omittable()
  @PromptQueryField(false)
  query?: string;
}
