import { PageOf } from '@libs/http';
import { PromptDto } from '../prompt.dto';

export class PromptListResponse extends PageOf(PromptDto) {}
