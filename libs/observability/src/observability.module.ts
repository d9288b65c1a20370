import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { LoggingModule } from './logging.module';
import { OperationsController } from './operations.controller';

@Module({
  imports: [LoggingModule, TerminusModule.forRoot({ logger: false, errorLogStyle: 'json' })],
  controllers: [OperationsController],
})
export class ObservabilityModule {}
