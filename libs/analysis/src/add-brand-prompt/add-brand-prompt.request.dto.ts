import { PromptQueryField, PromptSettings } from '../prompt-fields';

export class AddBrandPromptRequest extends PromptSettings {
  @PromptQueryField(true)
  query!: string;
}
