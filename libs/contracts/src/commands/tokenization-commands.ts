import type { ActivationMethod, TokenizationAction, TokenizationOutcome, TokenizationSource } from '@ledger/domain';
import { type CommandOrigin } from './command-origin';

/** What a wallet sends when it asks to tokenize a card (Lithic's simulate body, in our names). */
export interface WalletTokenizationRequest {
  readonly cvv: string;
  /** MM/YY, as printed on the card. */
  readonly expirationDate: string;
  readonly source: TokenizationSource;
  readonly accountScore?: number;
  readonly deviceScore?: number;
  readonly walletRecommendedDecision?: TokenizationOutcome;
}

/** POST /v1/simulate/tokenizations: the card is found by its number where the card-number registry is read. */
export class SimulateTokenizationCommand {
  constructor(
    readonly origin: CommandOrigin,
    readonly pan: string,
    readonly request: WalletTokenizationRequest,
  ) {}
}

/** The card-service's part: the wallet's request decided against the card, on a new tokenization stream. */
export class TokenizeCardCommand {
  constructor(
    readonly origin: CommandOrigin,
    readonly cardToken: string,
    readonly request: WalletTokenizationRequest,
  ) {}
}

export class ChangeTokenizationStatusCommand {
  constructor(
    readonly origin: CommandOrigin,
    readonly tokenizationToken: string,
    readonly action: TokenizationAction,
  ) {}
}

export class ResendActivationCodeCommand {
  constructor(
    readonly origin: CommandOrigin,
    readonly tokenizationToken: string,
    readonly method: ActivationMethod,
  ) {}
}

export class UpdateDigitalCardArtCommand {
  constructor(
    readonly origin: CommandOrigin,
    readonly tokenizationToken: string,
    readonly digitalCardArtToken: string | null,
  ) {}
}
