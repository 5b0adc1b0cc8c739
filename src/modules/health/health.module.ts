import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { GiteaReadiness } from './gitea-readiness';
import { HealthController } from './health.controller';

@Module({
  imports: [TerminusModule.forRoot({ errorLogStyle: 'json' })],
  controllers: [HealthController],
  providers: [GiteaReadiness],
  exports: [GiteaReadiness],
})
export class HealthModule {}
