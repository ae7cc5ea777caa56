import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { BacktestStats, RequestedBacktest } from '@ledger/domain';

/** Lithic's BacktestResults and BacktestStats (`lithic/resources/auth-rules/v2/backtests`). */

@ApiSchema({ name: 'AuthRuleBacktestExampleModel' })
export class BacktestExampleResponse {
  @ApiProperty({ enum: ['APPROVED', 'DECLINED', 'CHALLENGED'] }) decision!: 'APPROVED' | 'DECLINED' | 'CHALLENGED';
  @ApiProperty({ format: 'uuid', description: 'The AUTHORIZATION event of the transaction' }) event_token!: string;
  @ApiProperty({ format: 'date-time' }) timestamp!: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) transaction_token!: string | null;
}

@ApiSchema({ name: 'AuthRuleBacktestStatsModel' })
export class BacktestStatsResponse {
  @ApiProperty({ type: 'integer' }) approved!: number;
  @ApiProperty({ type: 'integer', description: 'A CHALLENGE action declines here (no cardholder to challenge), yet is counted as challenged' }) challenged!: number;
  @ApiProperty({ type: 'integer' }) declined!: number;
  @ApiProperty({ type: [BacktestExampleResponse], description: 'The most recent authorizations the version refused, then the most recent it approved; at most 10' }) examples!: BacktestExampleResponse[];
  @ApiProperty({ type: 'integer' }) version!: number;
}

@ApiSchema({ name: 'AuthRuleBacktestResultsByVersionModel' })
export class BacktestResultsByVersionResponse {
  @ApiProperty({ type: BacktestStatsResponse, nullable: true, description: 'null when the rule had no current version when the backtest ran' }) current_version!: BacktestStatsResponse | null;
  @ApiProperty({ type: BacktestStatsResponse, nullable: true, description: 'null when the rule had no draft when the backtest ran' }) draft_version!: BacktestStatsResponse | null;
}

@ApiSchema({ name: 'AuthRuleBacktestWindowModel' })
export class BacktestSimulationParametersResponse {
  @ApiProperty({ format: 'date-time' }) start!: string;
  @ApiProperty({ format: 'date-time' }) end!: string;
}

@ApiSchema({ name: 'AuthRuleBacktestResultsModel' })
export class BacktestResultsResponse {
  @ApiProperty({ format: 'uuid' }) backtest_token!: string;
  @ApiProperty({ type: BacktestResultsByVersionResponse }) results!: BacktestResultsByVersionResponse;
  @ApiProperty({ type: BacktestSimulationParametersResponse }) simulation_parameters!: BacktestSimulationParametersResponse;
}

@ApiSchema({ name: 'AuthRuleBacktestCreatedModel' })
export class BacktestCreateResponse {
  @ApiProperty({ format: 'uuid' }) backtest_token!: string;
}

/** The webhook `auth_rules.backtest_report.created`: the results as retrieve shows them, with Lithic's event type. */
export type BacktestReportCreatedBody = BacktestResultsResponse & { readonly event_type: 'auth_rules.backtest_report.created' };

export function presentBacktest(backtest: RequestedBacktest): BacktestResultsResponse {
  return {
    backtest_token: backtest.backtestToken,
    results: {
      current_version: backtest.results?.currentVersion ? presentStats(backtest.results.currentVersion) : null,
      draft_version: backtest.results?.draftVersion ? presentStats(backtest.results.draftVersion) : null,
    },
    simulation_parameters: { start: backtest.start, end: backtest.end },
  };
}

export function backtestReportCreatedBody(backtest: RequestedBacktest): BacktestReportCreatedBody {
  return { event_type: 'auth_rules.backtest_report.created', ...presentBacktest(backtest) };
}

function presentStats(stats: BacktestStats): BacktestStatsResponse {
  return {
    approved: stats.approved,
    challenged: stats.challenged,
    declined: stats.declined,
    examples: stats.examples.map((example) => ({ decision: example.decision, event_token: example.eventToken, timestamp: example.timestamp, transaction_token: example.transactionToken })),
    version: stats.version,
  };
}
