import { assertNever, Decider, DecisionContext } from '../core/decider';
import { ThreeDSAuthenticationNotFound, ThreeDSChallengeNotPending } from './three-ds-errors';

/**
 * A 3-D Secure authentication, as Lithic's sandbox simulates it, on a stream of its own
 * (`three-ds-authentication-<token>`): the network asks the issuer to authenticate a card-not-present
 * purchase before it is authorized. Frictionless unless the merchant's name carries the CHALLENGE
 * keyword (Lithic's sandbox rule), then a one-time-password challenge: one attempt, answered by the
 * OTP entry or by the program's out-of-band challenge response.
 */

export const THREE_DS_AUTHENTICATION_STREAM_CATEGORY = 'three-ds-authentication';
export const threeDSAuthenticationStreamId = (token: string): string => `${THREE_DS_AUTHENTICATION_STREAM_CATEGORY}-${token}`;
export const isThreeDSAuthenticationStream = (streamId: string): boolean => streamId.startsWith(`${THREE_DS_AUTHENTICATION_STREAM_CATEGORY}-`);

/** The merchant-name keyword with which Lithic's sandbox asks for a challenge. */
export const CHALLENGE_KEYWORD = 'CHALLENGE';
/** The one OTP the sandbox's challenge accepts (Lithic's documented example value). */
export const SANDBOX_OTP = '123456';

export type CardExpiryCheck = 'MATCH' | 'MISMATCH' | 'NOT_PRESENT';
export type AuthenticationResult = 'DECLINE' | 'SUCCESS' | 'PENDING_CHALLENGE';
export type ChallengeMethod = 'SMS_OTP' | 'OUT_OF_BAND';
export type ChallengeStatus = 'SUCCESS' | 'PENDING' | 'ATTEMPTS_EXCEEDED' | 'CANCELED_OOB';
export type DecisionMadeBy = 'LITHIC_DEFAULT' | 'CUSTOMER_ENDPOINT';
export type ChallengeResponseResult = 'APPROVE' | 'DECLINE_BY_CUSTOMER';

export interface ThreeDSMerchant {
  readonly id: string;
  readonly country: string;
  readonly mcc: string;
  readonly name: string;
}

export interface Challenge {
  readonly method: ChallengeMethod;
  readonly status: ChallengeStatus;
  /** Who ran the challenge: the sandbox's OTP screen, or the program's own out-of-band flow. */
  readonly orchestratedBy: 'LITHIC' | 'CUSTOMER';
}

// ---------------------------------------------------------------- commands

export interface SimulateThreeDSAuthentication {
  readonly type: 'SimulateThreeDSAuthentication';
  readonly threeDSAuthenticationToken: string;
  readonly cardToken: string;
  readonly programToken: string;
  readonly merchant: ThreeDSMerchant;
  /** Cents, in `currency`. */
  readonly amount: number;
  readonly currency: string;
  readonly cardExpiryCheck: CardExpiryCheck;
}

export interface EnterThreeDSOtp {
  readonly type: 'EnterThreeDSOtp';
  readonly programToken: string;
  readonly threeDSAuthenticationToken: string;
  readonly otp: string;
}

export interface RespondToThreeDSChallenge {
  readonly type: 'RespondToThreeDSChallenge';
  readonly programToken: string;
  readonly threeDSAuthenticationToken: string;
  readonly response: ChallengeResponseResult;
}

export type ThreeDSAuthenticationCommand = SimulateThreeDSAuthentication | EnterThreeDSOtp | RespondToThreeDSChallenge;

// ---------------------------------------------------------------- events

export interface ThreeDSAuthenticationCreated {
  readonly type: 'ThreeDSAuthenticationCreated';
  readonly data: {
    readonly threeDSAuthenticationToken: string;
    readonly cardToken: string;
    readonly programToken: string;
    readonly merchant: ThreeDSMerchant;
    readonly amount: number;
    readonly currency: string;
    readonly cardExpiryCheck: CardExpiryCheck;
    readonly result: AuthenticationResult;
    readonly decisionMadeBy: DecisionMadeBy;
    /** null when no challenge was asked for. */
    readonly challenge: Challenge | null;
    readonly at: string;
  };
}

/**
 * The challenge answered: the result is now final. Repeats the whole authentication, so that the
 * event alone is what Lithic's three_ds_authentication.updated webhook carries.
 */
export interface ThreeDSChallengeCompleted {
  readonly type: 'ThreeDSChallengeCompleted';
  readonly data: Omit<ThreeDSAuthenticationCreated['data'], 'result' | 'challenge'> & {
    readonly result: 'SUCCESS' | 'DECLINE';
    readonly challenge: Challenge;
    /** When the authentication was created; `at` is when its challenge was answered. */
    readonly created: string;
  };
}

export type ThreeDSAuthenticationEvent = ThreeDSAuthenticationCreated | ThreeDSChallengeCompleted;

// ---------------------------------------------------------------- state

export type ExistingThreeDSAuthentication = Omit<ThreeDSAuthenticationCreated['data'], 'at'> & {
  readonly status: 'existing';
  readonly created: string;
  readonly updated: string;
};

export type ThreeDSAuthentication = { readonly status: 'absent' } | ExistingThreeDSAuthentication;

/** The authentication as one of its events leaves it: each carries all of it (what a webhook body is rendered from). */
export function threeDSAuthenticationAfter(event: ThreeDSAuthenticationEvent): ExistingThreeDSAuthentication {
  switch (event.type) {
    case 'ThreeDSAuthenticationCreated': {
      const { at, ...data } = event.data;
      return { status: 'existing', ...data, created: at, updated: at };
    }
    case 'ThreeDSChallengeCompleted': {
      const { at, ...data } = event.data;
      return { status: 'existing', ...data, updated: at };
    }
    default:
      return assertNever(event);
  }
}

export function evolveThreeDSAuthentication(authentication: ThreeDSAuthentication, event: ThreeDSAuthenticationEvent): ThreeDSAuthentication {
  if (event.type === 'ThreeDSChallengeCompleted' && authentication.status !== 'existing') return authentication;
  return threeDSAuthenticationAfter(event);
}

// ---------------------------------------------------------------- decide

/**
 * The sandbox's decision: a cardholder who typed another expiry than the card's is declined; a
 * merchant named with the CHALLENGE keyword gets an SMS OTP challenge; everything else is frictionless.
 */
function decideSimulation(command: SimulateThreeDSAuthentication, authentication: ThreeDSAuthentication, now: Date): ThreeDSAuthenticationEvent[] {
  if (authentication.status !== 'absent') return [];
  const { type: _type, ...requested } = command;
  const challenged = command.cardExpiryCheck !== 'MISMATCH' && command.merchant.name.toUpperCase().includes(CHALLENGE_KEYWORD);
  const result: AuthenticationResult = command.cardExpiryCheck === 'MISMATCH' ? 'DECLINE' : challenged ? 'PENDING_CHALLENGE' : 'SUCCESS';
  const challenge: Challenge | null = challenged ? { method: 'SMS_OTP', status: 'PENDING', orchestratedBy: 'LITHIC' } : null;
  return [{ type: 'ThreeDSAuthenticationCreated', data: { ...requested, result, decisionMadeBy: 'LITHIC_DEFAULT', challenge, at: now.toISOString() } }];
}

function pendingChallenge(authentication: ThreeDSAuthentication, token: string, programToken: string): ExistingThreeDSAuthentication & { readonly challenge: Challenge } {
  const owned = ownedThreeDSAuthentication(authentication, token, programToken, 'token');
  if (owned.result !== 'PENDING_CHALLENGE' || owned.challenge === null) throw new ThreeDSChallengeNotPending(token, owned.result);
  return { ...owned, challenge: owned.challenge };
}

function completed(pending: ExistingThreeDSAuthentication, result: 'SUCCESS' | 'DECLINE', decisionMadeBy: DecisionMadeBy, challenge: Challenge, now: Date): ThreeDSChallengeCompleted {
  const { status: _status, updated: _updated, ...authentication } = pending;
  return { type: 'ThreeDSChallengeCompleted', data: { ...authentication, result, decisionMadeBy, challenge, at: now.toISOString() } };
}

/** One attempt, as Lithic's sandbox allows: the right OTP authenticates, any other declines. */
function decideOtp(command: EnterThreeDSOtp, authentication: ThreeDSAuthentication, now: Date): ThreeDSAuthenticationEvent[] {
  const pending = pendingChallenge(authentication, command.threeDSAuthenticationToken, command.programToken);
  const passed = command.otp === SANDBOX_OTP;
  const challenge: Challenge = { ...pending.challenge, status: passed ? 'SUCCESS' : 'ATTEMPTS_EXCEEDED' };
  return [completed(pending, passed ? 'SUCCESS' : 'DECLINE', 'LITHIC_DEFAULT', challenge, now)];
}

/** The program ran the challenge out of band and says how the cardholder answered it. */
function decideChallengeResponse(command: RespondToThreeDSChallenge, authentication: ThreeDSAuthentication, now: Date): ThreeDSAuthenticationEvent[] {
  const pending = pendingChallenge(authentication, command.threeDSAuthenticationToken, command.programToken);
  const approved = command.response === 'APPROVE';
  const challenge: Challenge = { method: 'OUT_OF_BAND', status: approved ? 'SUCCESS' : 'CANCELED_OOB', orchestratedBy: 'CUSTOMER' };
  return [completed(pending, approved ? 'SUCCESS' : 'DECLINE', 'CUSTOMER_ENDPOINT', challenge, now)];
}

export function decideThreeDSAuthentication(command: ThreeDSAuthenticationCommand, authentication: ThreeDSAuthentication, { now }: DecisionContext): ThreeDSAuthenticationEvent[] {
  switch (command.type) {
    case 'SimulateThreeDSAuthentication':
      return decideSimulation(command, authentication, now);
    case 'EnterThreeDSOtp':
      return decideOtp(command, authentication, now);
    case 'RespondToThreeDSChallenge':
      return decideChallengeResponse(command, authentication, now);
    default:
      return assertNever(command);
  }
}

export const threeDSAuthenticationDecider: Decider<ThreeDSAuthenticationCommand, ThreeDSAuthenticationEvent, ThreeDSAuthentication> = {
  initialState: () => ({ status: 'absent' }),
  decide: decideThreeDSAuthentication,
  evolve: evolveThreeDSAuthentication,
};

/** The program's authentication, or not found: another program's is reported as missing. */
export function ownedThreeDSAuthentication(authentication: ThreeDSAuthentication, token: string, programToken: string, field?: string): ExistingThreeDSAuthentication {
  if (authentication.status !== 'existing' || authentication.programToken !== programToken) throw new ThreeDSAuthenticationNotFound(token, field);
  return authentication;
}
