import { type CommandOrigin } from './command-origin';

/** Lithic's backtest create: the window as sent, absent fields taking the domain's defaults. */
export class RequestAuthRuleBacktestCommand {
  constructor(
    readonly origin: CommandOrigin,
    readonly authRuleToken: string,
    readonly window: { readonly start?: string; readonly end?: string },
  ) {}
}
