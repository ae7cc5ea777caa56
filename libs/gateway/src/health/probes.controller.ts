import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { SkipThrottle } from '@nestjs/throttler';
import type { FastifyReply } from 'fastify';
import { Readiness } from './readiness';

export class LivenessModel {
  @ApiProperty({ enum: ['ok'] })
  status!: 'ok';
}

export class ReadinessModel {
  @ApiProperty({ enum: ['ready', 'not_ready'] })
  status!: 'ready' | 'not_ready';

  @ApiProperty({ description: 'True once SIGTERM was received: in-flight work finishes, no new work is taken' })
  draining!: boolean;

  @ApiProperty({ description: 'Each dependency: ok or failing', type: 'object', additionalProperties: { type: 'string', enum: ['ok', 'failing'] } })
  checks!: Record<string, 'ok' | 'failing'>;
}

/**
 * Probes every process of the ledger answers, whatever its roles: on the API port in processes with
 * the gateway role (the embedded default among them), on HEALTH_PORT in the others. No api-key, never
 * rate-limited. `/health` (the gateway's) keeps its meaning: the database answers.
 */
@ApiTags('health')
@SkipThrottle({ second: true, minute: true })
@Controller('health')
export class ProbesController {
  constructor(private readonly readiness: Readiness) {}

  @Get('live')
  @ApiOperation({ summary: 'Liveness: 200 while the process runs (restart it when this fails)' })
  @ApiOkResponse({ type: LivenessModel })
  live(): LivenessModel {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiOperation({ summary: 'Readiness: 200 when the database (and the command transport, if any) answer and the process is not draining; 503 otherwise' })
  @ApiOkResponse({ type: ReadinessModel })
  @ApiServiceUnavailableResponse({ type: ReadinessModel })
  async ready(@Res() reply: FastifyReply): Promise<void> {
    const report = await this.readiness.report();
    reply.code(report.ready ? 200 : 503).send({ status: report.ready ? 'ready' : 'not_ready', draining: report.draining, checks: report.checks });
  }
}
