import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { GiteaHttpModule } from '../../infra/gitea/gitea-http.module';
import { GiteaReadiness } from './gitea-readiness';
import { HealthController } from './health.controller';

@Module({
  imports: [TerminusModule.forRoot({ errorLogStyle: 'json' }), GiteaHttpModule],
  controllers: [HealthController],
  providers: [GiteaReadiness],
  exports: [GiteaReadiness],
})
export class HealthModule {}
