import type { PageRequest } from './page-request';

export class GetAuthRuleQuery {
  constructor(
    readonly programToken: string,
    readonly authRuleToken: string,
  ) {}
}

export interface AuthRuleFilter {
  readonly cardToken?: string;
  readonly accountToken?: string;
  readonly scope?: string;
}

export class ListAuthRulesQuery {
  constructor(
    readonly programToken: string,
    readonly filter: AuthRuleFilter,
    readonly paging: PageRequest,
  ) {}
}

export class ListAuthRuleVersionsQuery {
  constructor(
    readonly programToken: string,
    readonly authRuleToken: string,
  ) {}
}
