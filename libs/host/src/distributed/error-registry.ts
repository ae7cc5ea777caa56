import { HttpException } from '@nestjs/common';
import { Unauthenticated } from '@ledger/auth';
import { WebhookMessageNotFound } from '@ledger/contracts';
import {
  DisputeNotFound,
  DisputeEvidenceNotFound,
  TransactionAlreadyDisputed,
  TransactionNotDisputable,
  DisputeAmountOutOfRange,
  DisputeStateConflict,
  DisputeResolutionInvalid,
  DisputeEvidenceStateConflict,
  DisputeEvidenceTooLarge,
  DisputeEvidenceEmpty,
  AmountAboveAvailable,
  ApiKeyNotFound,
  AuthRuleAlreadyExists,
  AuthRuleBacktestNotFound,
  ThreeDSAuthenticationNotFound,
  ThreeDSChallengeNotPending,
  AuthRuleBacktestNotSupported,
  AuthRuleBacktestWindowInvalid,
  TokenizationNotFound,
  TokenizationTransitionRefused,
  CardNotProvisionable,
  TokenizationNotOfCard,
  AuthRuleHasNoDraft,
  AuthRuleNotFound,
  AuthRuleParametersInvalid,
  AuthRuleScopeInvalid,
  AuthRuleStateNotAllowed,
  AuthorizationStreamNotEnrolled,
  CardAlreadyExists,
  CardIsClosed,
  CardNotFound,
  CardNumberTaken,
  CardStateNotAllowed,
  CardNotShipped,
  CardNotActivated,
  CardMustBeOpen,
  CardTypeNotAllowed,
  NoPlasticToShip,
  TooManyPlastics,
  ShippingRequired,
  ShippingNotApplicable,
  ReplacedCardNotFound,
  ReplacementTypeMismatch,
  UnknownCardProgram,
  CardProgramNotFound,
  ClockCannotMoveBackwards,
  Conflict,
  EndpointUrlInvalid,
  EndpointUrlNotAllowed,
  EventSubscriptionAlreadyExists,
  EventSubscriptionNotFound,
  ExpiryInThePast,
  FundingSourceNotFound,
  FinancialAccountNotFound,
  StatementNotFound,
  InvalidInput,
  LocalAmountOutOfRange,
  ExpiryAmountNotPending,
  NotFound,
  ProgramAlreadyExists,
  ProgramNotFound,
  TransactionNotFound,
  TransactionEventTokenWithdrawn,
  TransactionStateConflict,
  UnknownWebhookEventType,
} from '@ledger/domain';
import { WrongExpectedVersionError } from '@ledger/event-store';
import { ReadModelBehind } from '@ledger/runtime';
import { NoCardWithThisNumber } from '@ledger/transaction-service';
import { NoExampleEvent } from '@ledger/webhooks';

/** An error class as the registry holds it: anything `instanceof` can test. */
export type ErrorClass = abstract new (...args: never[]) => Error;

/** An error class that names itself: `static readonly code`. */
type CodedErrorClass = ErrorClass & { readonly code: string };

/**
 * Which error class a code stands for, and the code of an error. Built from an explicit list: only
 * what is listed crosses a process as itself. An error of a class not listed is known by its nearest
 * listed ancestor (a DomainError subclass of an app's own by its kind's base class), else by no code.
 */
export class ErrorRegistry {
  private readonly classes = new Map<string, ErrorClass>();
  private readonly codes = new Map<ErrorClass, string>();

  constructor(entries: readonly (readonly [code: string, type: ErrorClass])[]) {
    for (const [code, type] of entries) {
      if (this.classes.has(code)) throw new Error(`Error code ${code} is registered twice`);
      if (this.codes.has(type)) throw new Error(`An error class is registered twice (the second time as ${code})`);
      this.classes.set(code, type);
      this.codes.set(type, code);
    }
  }

  classOf(code: string): ErrorClass | undefined {
    return this.classes.get(code);
  }

  /** The code of the error's own class, or of the nearest registered class it extends. */
  codeOf(error: Error): string | undefined {
    for (let prototype: object | null = Object.getPrototypeOf(error); prototype !== null; prototype = Object.getPrototypeOf(prototype)) {
      const code = this.codes.get((prototype as { constructor: ErrorClass }).constructor);
      if (code !== undefined) return code;
    }
    return undefined;
  }

  /** Every registered pair, for the specs that check the list against what the libraries export. */
  entries(): [string, ErrorClass][] {
    return [...this.classes.entries()];
  }
}

/** Each class under the code it declares. */
const coded = (types: readonly CodedErrorClass[]): [string, ErrorClass][] => types.map((type) => [type.code, type]);

/**
 * Every error a handler in another process can throw that the caller tells apart: the domain's (the
 * kinds' bases included, for the classes nobody registered), an app's own domain errors, a lost race
 * on a stream, a read model that is behind, a refused api-key, and Nest's HttpException (the 503 of a
 * forward that found no replica, passed back through a second hop).
 */
export const CROSSING_ERRORS = new ErrorRegistry([
  ...coded([
    InvalidInput,
    NotFound,
    Conflict,
    CardNotFound,
    CardAlreadyExists,
    CardIsClosed,
    CardStateNotAllowed,
    ExpiryInThePast,
    CardNumberTaken,
    CardNotShipped,
    CardNotActivated,
    CardMustBeOpen,
    CardTypeNotAllowed,
    NoPlasticToShip,
    TooManyPlastics,
    ShippingRequired,
    ShippingNotApplicable,
    ReplacedCardNotFound,
    ReplacementTypeMismatch,
    UnknownCardProgram,
    CardProgramNotFound,
    TransactionNotFound,
    TransactionStateConflict,
    TransactionEventTokenWithdrawn,
    AmountAboveAvailable,
    ExpiryAmountNotPending,
    LocalAmountOutOfRange,
    ProgramNotFound,
    ProgramAlreadyExists,
    ApiKeyNotFound,
    FundingSourceNotFound,
    FinancialAccountNotFound,
    StatementNotFound,
    AuthorizationStreamNotEnrolled,
    ClockCannotMoveBackwards,
    EventSubscriptionNotFound,
    EventSubscriptionAlreadyExists,
    UnknownWebhookEventType,
    AuthRuleNotFound,
    AuthRuleAlreadyExists,
    AuthRuleParametersInvalid,
    AuthRuleScopeInvalid,
    AuthRuleHasNoDraft,
    AuthRuleStateNotAllowed,
    AuthRuleBacktestNotFound,
    AuthRuleBacktestNotSupported,
    AuthRuleBacktestWindowInvalid,
    ThreeDSAuthenticationNotFound,
    ThreeDSChallengeNotPending,
    TokenizationNotFound,
    TokenizationTransitionRefused,
    CardNotProvisionable,
    TokenizationNotOfCard,
    DisputeNotFound,
    DisputeEvidenceNotFound,
    TransactionAlreadyDisputed,
    TransactionNotDisputable,
    DisputeAmountOutOfRange,
    DisputeStateConflict,
    DisputeResolutionInvalid,
    DisputeEvidenceStateConflict,
    DisputeEvidenceTooLarge,
    DisputeEvidenceEmpty,
    EndpointUrlInvalid,
    EndpointUrlNotAllowed,
    WebhookMessageNotFound,
    NoCardWithThisNumber,
    NoExampleEvent,
    WrongExpectedVersionError,
    ReadModelBehind,
    Unauthenticated,
  ]),
  // Nest's class, so the code is ours to give; it is rebuilt from its status and response.
  ['http_exception', HttpException],
]);
