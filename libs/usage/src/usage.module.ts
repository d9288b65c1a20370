import { Module } from '@nestjs/common';
import { AnalysisCostModule } from '@libs/analysis';
import { AuthModule } from '@libs/auth';
import { KeyUsageController } from './key-usage/key-usage.http.controller';
import { UsageStatisticsController } from './usage-statistics/usage-statistics.http.controller';
import { UsageRecorder } from './record-usage/usage.recorder';
import { UsageRepository } from './usage.repository';

/** Per-credential API usage: counted in memory on every authenticated response, written in batches, reported per organisation and key. */
@Module({
  imports: [AuthModule, AnalysisCostModule],
  controllers: [UsageStatisticsController, KeyUsageController],
  providers: [UsageRepository, UsageRecorder],
  exports: [UsageRecorder, UsageRepository],
})
export class UsageModule {}
