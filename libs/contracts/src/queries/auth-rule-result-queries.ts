import type { PageRequest } from './page-request';

export interface AuthRuleResultFilter {
  readonly authRuleToken?: string;
  readonly eventToken?: string;
  readonly begin?: Date;
  readonly end?: Date;
  readonly hasActions?: boolean;
}

export class ListAuthRuleResultsQuery {
  constructor(
    readonly programToken: string,
    readonly filter: AuthRuleResultFilter,
    readonly paging: PageRequest,
  ) {}
}

/** Days are UTC midnights; both included. Neither given is refused once the rule is found. */
export class GetAuthRuleReportQuery {
  constructor(
    readonly programToken: string,
    readonly authRuleToken: string,
    readonly begin: Date | undefined,
    readonly end: Date | undefined,
  ) {}
}

export class GetAuthRuleFeaturesQuery {
  constructor(
    readonly programToken: string,
    readonly authRuleToken: string,
    readonly target: { readonly cardToken?: string; readonly accountToken?: string },
  ) {}
}
