import { Global, Module } from '@nestjs/common';
import { ProbesController } from './probes.controller';
import { Readiness } from './readiness';

/** Liveness and readiness for every process; global so any module can add a readiness check. */
@Global()
@Module({
  controllers: [ProbesController],
  providers: [Readiness],
  exports: [Readiness],
})
export class HealthProbesModule {}
