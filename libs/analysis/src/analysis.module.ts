import { Module } from '@nestjs/common';
import { TenancyModule } from '@libs/tenancy';
import { AddBrandPromptController } from './add-brand-prompt/add-brand-prompt.http.controller';
import { ListBrandPromptsController } from './list-brand-prompts/list-brand-prompts.http.controller';
import { RemoveBrandPromptController } from './remove-brand-prompt/remove-brand-prompt.http.controller';
import { TrackedPromptsRepository } from './tracked-prompts.repository';
import { UpdateBrandPromptController } from './update-brand-prompt/update-brand-prompt.http.controller';

/** What the service asks the AI engines: tracked prompts and brand schedules (DESIGN §13.1). */
@Module({
  imports: [TenancyModule],
  controllers: [ListBrandPromptsController, AddBrandPromptController, UpdateBrandPromptController, RemoveBrandPromptController],
  providers: [TrackedPromptsRepository],
  exports: [TrackedPromptsRepository],
})
export class AnalysisModule {}
