import type { CreatableCardState, CreatableCardType, Expiry, FulfillmentCommand, Shipping, SpendLimitDuration, UpdatableCardState } from '@ledger/domain';
import { CommandOrigin } from './command-origin';

/**
 * Application commands: what the gateway sends to the aggregate services, over the in-process bus in
 * the embedded default and over the network in the distributed set. Plain data, so they serialize.
 */
export interface CommandAccepted {
  /** The aggregate the command created or changed. */
  readonly token: string;
  /**
   * Global position, "<commit>/<prepare>", of the last event written; when nothing was written (a
   * repeat), of the newest event the decision read, so a read that waits for it sees what the
   * answer stands on; null when it read nothing either.
   */
  readonly position: string | null;
}

export class CreateCardCommand {
  constructor(
    readonly origin: CommandOrigin,
    readonly card: {
      readonly type: CreatableCardType;
      readonly memo?: string;
      readonly fundingToken?: string;
      readonly spendLimit?: number;
      readonly spendLimitDuration?: SpendLimitDuration;
      readonly state?: CreatableCardState;
      readonly expiry?: Expiry;
      readonly pin?: string;
      readonly cardProgramToken?: string;
      readonly shipping?: Shipping;
      readonly replacementFor?: string;
    },
  ) {}
}

/** A card's plastic: shipping (sandbox), renewal, reissue, conversion to PHYSICAL. */
export class FulfillCardCommand {
  constructor(
    readonly origin: CommandOrigin,
    readonly command: FulfillmentCommand,
  ) {}
}

export class UpdateCardCommand {
  constructor(
    readonly origin: CommandOrigin,
    readonly cardToken: string,
    readonly changes: {
      readonly state?: UpdatableCardState;
      readonly memo?: string;
      readonly fundingToken?: string;
      readonly spendLimit?: number;
      readonly spendLimitDuration?: SpendLimitDuration;
      readonly pin?: string;
    },
  ) {}
}
