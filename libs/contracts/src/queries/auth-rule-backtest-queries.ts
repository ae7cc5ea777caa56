export class GetAuthRuleBacktestQuery {
  constructor(
    readonly programToken: string,
    readonly authRuleToken: string,
    readonly backtestToken: string,
  ) {}
}
