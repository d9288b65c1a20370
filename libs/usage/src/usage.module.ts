import { Module } from '@nestjs/common';
import { AuthModule } from '@libs/auth';
import { UsageController } from './usage.controller';
import { UsageRecorder } from './usage.recorder';
import { UsageRepository } from './usage.repository';

/** Per-credential API usage: counted in memory on every authenticated response, written in batches, reported per organisation and key. */
@Module({
  imports: [AuthModule],
  controllers: [UsageController],
  providers: [UsageRepository, UsageRecorder],
  exports: [UsageRecorder, UsageRepository],
})
export class UsageModule {}
