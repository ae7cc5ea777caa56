import { CursorParameter } from './cursor-parameters';
import { DateParameter, InstantParameter } from './query-parameters';
import { TokenField } from './token-field';
import { PageParams } from './validation';
import { OneOfField } from './value-fields';

/** GET /v2/auth_rules/results: Lithic's filters; result tokens are name-based UUIDs, so the cursors take any UUID. */
export class ListAuthRuleResultsParams extends PageParams {
  @CursorParameter({ anyUuid: true })
  starting_after?: string;

  @CursorParameter({ anyUuid: true })
  ending_before?: string;

  @TokenField({ optional: true, description: "Only this rule's results" })
  auth_rule_token?: string;

  @TokenField({ optional: true, description: "Only the results of this event (a transaction's AUTHORIZATION event)" })
  event_token?: string;

  @InstantParameter({ description: 'Only results evaluated at or after this instant' })
  begin?: Date;

  @InstantParameter({ description: 'Only results evaluated before this instant' })
  end?: Date;

  @OneOfField(['true', 'false'], { optional: true, description: 'true: only results that asked for an action (a decline or a challenge); false: only those that did not' })
  has_actions?: 'true' | 'false';
}

/** GET /v2/auth_rules/{token}/report: UTC days, both included. */
export class AuthRuleReportParams {
  @DateParameter({ description: 'First day of the report (UTC)' })
  begin!: Date;

  @DateParameter({ description: 'Last day of the report (UTC), included' })
  end!: Date;
}

/** GET /v2/auth_rules/{token}/features: the card (CARD-scoped limits) or account (ACCOUNT-scoped) the counters are for. */
export class AuthRuleFeaturesParams {
  @TokenField({ optional: true, description: 'The card whose counters a CARD-scoped velocity limit shows' })
  card_token?: string;

  @TokenField({ optional: true, description: 'The account (the program) whose counters an ACCOUNT-scoped velocity limit shows' })
  account_token?: string;
}
