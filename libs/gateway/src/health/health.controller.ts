import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { Pool } from 'pg';

export class HealthModel {
  @ApiProperty({ enum: ['ok'] })
  status!: 'ok';
}

/** Answers 200 once the service can take requests: the database answers and the app is listening. */
@ApiTags('health')
@Controller()
export class HealthController {
  constructor(@Inject(Pool) private readonly pool: Pool) {}

  @Get('health')
  @ApiOperation({ summary: 'Liveness: 200 once the database answers (no api-key needed)' })
  @ApiOkResponse({ type: HealthModel })
  async health(): Promise<HealthModel> {
    await this.pool.query('select 1');
    return { status: 'ok' };
  }
}
