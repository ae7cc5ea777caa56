import type { AuthorizationFacts, AuthorizationPos, CreditAuthorizationKind, DebitAuthorizationKind, DeclineReason, Merchant, TransactionResult } from '@ledger/domain';
import { type CommandOrigin } from './command-origin';

/** Card details an authorization may present, checked against the card. */
export interface PresentedCardDetails {
  readonly cvv?: string;
  readonly expMonth?: string;
  readonly expYear?: string;
  readonly pin?: string;
}

export interface SimulatedAuthorization {
  readonly pan: string;
  /** The card's wallet token it comes through (an extension of Lithic's simulate); the card's own number when absent. */
  readonly tokenizationToken?: string;
  readonly amount: number;
  readonly merchant: Merchant;
  readonly merchantCurrency: string;
  readonly merchantAmount: number;
  readonly presented: PresentedCardDetails;
  readonly partialApprovalCapable?: boolean;
  /** Lithic's kind of debit message; a plain (dual-message) purchase authorization when absent. */
  readonly kind?: DebitAuthorizationKind;
  /** The point of sale's facts, when the request gave any. */
  readonly pos?: AuthorizationPos;
  /** The card's 3DS authentication this purchase follows, when the simulation named one. */
  readonly threeDSAuthenticationToken?: string;
}

/** What a simulation recorded: the transaction, its result, and where the last event landed. */
export interface SimulationAccepted {
  readonly transactionToken: string;
  readonly result: TransactionResult;
  readonly position: string | null;
}

export class SimulateAuthorizationCommand {
  constructor(
    readonly origin: CommandOrigin,
    readonly authorization: SimulatedAuthorization,
    /**
     * Chosen by the caller (the gateway), so that when no answer comes back it can still find the
     * decision under this token, or withdraw the token so that no decision is ever recorded under it.
     */
    readonly transactionToken: string,
  ) {}
}

export type TransactionAmountAction = 'VOID' | 'CLEARING' | 'ADVICE';

export class SimulateTransactionEventCommand {
  constructor(
    readonly origin: CommandOrigin,
    readonly action: TransactionAmountAction,
    readonly transactionToken: string,
    /** Cents. A void or clearing without it moves the full pending amount (the domain decides); an advice always has one. */
    readonly amount: number | undefined,
    /** The gateway's token for the event: should no answer come back, it is where to look. */
    readonly eventToken: string,
  ) {}
}

/**
 * Expires a pending authorization whole (Lithic's expire_authorization, and a simulated void of type
 * AUTHORIZATION_EXPIRY): its hold is released and the card's spend moves back.
 */
export class ExpireAuthorizationCommand {
  constructor(
    readonly origin: CommandOrigin,
    readonly transactionToken: string,
    /** Cents, when the caller named one: it must be all that is pending (the domain decides). */
    readonly amount: number | undefined,
    /** The gateway's token for the expiry event: should no answer come back, it is where to look. */
    readonly eventToken: string,
  ) {}
}

export class SimulateReturnCommand {
  constructor(
    readonly origin: CommandOrigin,
    readonly pan: string,
    readonly amount: number,
    readonly merchant: Merchant,
    /** The gateway's token for the return's transaction: should no answer come back, it is where to look. */
    readonly transactionToken: string,
    /** Lithic's kind of credit, which takes the return's way; a plain return when absent. */
    readonly kind?: CreditAuthorizationKind,
  ) {}
}

/** Takes a whole return back (Lithic's simulateReturnReversal). */
export class SimulateReturnReversalCommand {
  constructor(
    readonly origin: CommandOrigin,
    readonly transactionToken: string,
    /** The gateway's token for the reversal event: should no answer come back, it is where to look. */
    readonly eventToken: string,
  ) {}
}

export interface SettlementAccepted {
  readonly settled: string[];
  readonly bounced: string[];
  readonly position: string | null;
}

export class SimulateSettlementCommand {
  constructor(
    readonly origin: CommandOrigin,
    /** One transaction, or every SETTLING transaction of the program when absent. */
    readonly transactionToken?: string,
  ) {}
}

// ------------------------------------------------- card side: spend decisions (card-service)

export interface CardSpendDecision {
  readonly result: TransactionResult;
  readonly facts: AuthorizationFacts;
  readonly position: string;
}

/** Asks the card aggregate whether the card may spend; the answer is recorded on the card either way. */
export class AuthorizeCardSpendCommand {
  constructor(
    readonly origin: CommandOrigin,
    readonly cardToken: string,
    readonly request: Omit<AuthorizationFacts, 'cardToken' | 'programToken' | 'fundingToken' | 'at' | 'tokenInfo'> & {
      readonly presented: PresentedCardDetails;
      /** The card's wallet token it comes through: its stream is read and checked in the authorization's write. */
      readonly tokenizationToken?: string;
      /** The program's authorization endpoint may then approve a smaller amount. */
      readonly partialApprovalCapable?: boolean;
    },
  ) {}
}

export type { DeclineReason };
