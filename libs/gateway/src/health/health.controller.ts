import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Pool } from 'pg';
import { HealthModel } from '../http/openapi-models';

/** Answers 200 once the service can take requests: the database answers and the app is listening. */
@ApiTags('health')
@Controller()
export class HealthController {
  constructor(@Inject(Pool) private readonly pool: Pool) {}

  @Get('health')
  @ApiOperation({ summary: 'Liveness: 200 once the database answers (no api-key needed)' })
  @ApiOkResponse({ type: HealthModel })
  async health(): Promise<{ status: 'ok' }> {
    await this.pool.query('select 1');
    return { status: 'ok' };
  }
}
