import { Inject, Injectable } from '@nestjs/common';
import type { AuthRuleEvaluation } from '@ledger/domain';
import type { ReadModelClient } from '@ledger/read-model';
import { READ_MODEL } from '@ledger/runtime';

export interface EvaluationFilter {
  readonly authRuleToken?: string;
  readonly eventToken?: string;
  /** Evaluated at or after. */
  readonly from?: Date;
  /** Evaluated before. */
  readonly before?: Date;
  readonly hasActions?: boolean;
}

interface EvaluationRow {
  transaction_token: string;
  event_token: string;
  evaluated: string;
  auth_rule_token: string;
  version: number;
  mode: AuthRuleEvaluation['mode'];
  decision: AuthRuleEvaluation['decision'];
  detailed_result: AuthRuleEvaluation['detailedResult'];
  explanation: string | null;
}

/**
 * A program's Auth Rule evaluations, read from the transactions read model: the projector already
 * keeps each authorization's recorded `ruleResults` (ACTIVE and SHADOW) in the transaction's
 * `events`, so an authorization costs nothing more to project, and a program without rules has no
 * results to read. A read flattens the program's transactions' events (the program_token index, then
 * the events of each of its transactions), oldest first: fine for a sandbox's history, and the one
 * place to move to a table of its own should a program's history outgrow it.
 */
@Injectable()
export class AuthRuleEvaluations {
  constructor(@Inject(READ_MODEL) private readonly readModel: ReadModelClient) {}

  async of(programToken: string, filter: EvaluationFilter): Promise<AuthRuleEvaluation[]> {
    const conditions: string[] = [];
    const values: unknown[] = [programToken];
    const where = (sql: (placeholder: string) => string, value: unknown) => {
      values.push(value);
      conditions.push(sql(`$${values.length}`));
    };
    if (filter.authRuleToken !== undefined) where((p) => `r->>'authRuleToken' = ${p}`, filter.authRuleToken);
    if (filter.eventToken !== undefined) where((p) => `e->>'token' = ${p}`, filter.eventToken);
    if (filter.from !== undefined) where((p) => `(e->>'created')::timestamptz >= ${p}::timestamptz`, filter.from.toISOString());
    if (filter.before !== undefined) where((p) => `(e->>'created')::timestamptz < ${p}::timestamptz`, filter.before.toISOString());
    if (filter.hasActions !== undefined) conditions.push(filter.hasActions ? `r->>'decision' <> 'APPROVED'` : `r->>'decision' = 'APPROVED'`);
    const rows = await this.readModel.$queryRawUnsafe<EvaluationRow[]>(
      `SELECT t.token::text AS transaction_token, e->>'token' AS event_token, e->>'created' AS evaluated,
              r->>'authRuleToken' AS auth_rule_token, (r->>'version')::int AS version, r->>'mode' AS mode,
              r->>'decision' AS decision, r->>'detailedResult' AS detailed_result, r->>'explanation' AS explanation
         FROM transactions t
        CROSS JOIN LATERAL jsonb_array_elements(t.events) e
        CROSS JOIN LATERAL jsonb_array_elements(e->'ruleResults') r
        WHERE t.program_token = $1::uuid AND jsonb_typeof(e->'ruleResults') = 'array'${conditions.map((condition) => ` AND ${condition}`).join('')}
        ORDER BY (e->>'created')::timestamptz, t.token, r->>'authRuleToken', (r->>'version')::int`,
      ...values,
    );
    return rows.map((row) => ({
      authRuleToken: row.auth_rule_token,
      version: row.version,
      mode: row.mode,
      decision: row.decision,
      detailedResult: row.detailed_result,
      explanation: row.explanation,
      eventToken: row.event_token,
      transactionToken: row.transaction_token,
      evaluated: row.evaluated,
    }));
  }
}
