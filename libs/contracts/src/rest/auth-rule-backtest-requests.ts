import { IsString, ValidateBy } from 'class-validator';
import { parseInstantParameter } from './query-parameters';
import { TokenField } from './token-field';
import { valueField } from './value-fields';

/** An RFC 3339 instant, kept as written; the domain reads it and checks the window. */
function InstantField(field: 'start' | 'end', description: string): PropertyDecorator {
  const message = `${field} must be an RFC 3339 instant, YYYY-MM-DDThh:mm:ss[.fraction] with Z or an offset`;
  return valueField({ type: String, format: 'date-time' }, { optional: true, description }, [
    IsString(),
    ValidateBy({ name: 'instant', validator: { validate: (value: unknown) => parseInstantParameter(value) !== null, defaultMessage: () => message } }),
  ]);
}

/** POST /v2/auth_rules/{auth_rule_token}/backtests: the window of history to replay. */
export class CreateAuthRuleBacktestRequest {
  @InstantField('start', 'Inclusive; absent: 30 days before end')
  start?: string;

  @InstantField('end', "Inclusive; absent: now (the program's clock)")
  end?: string;
}

export class AuthRuleBacktestParams {
  @TokenField()
  auth_rule_token!: string;

  @TokenField()
  auth_rule_backtest_token!: string;
}
