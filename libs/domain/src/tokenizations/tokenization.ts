import { assertNever, Decider, DecisionContext } from '../core/decider';
import { TokenizationNotFound, TokenizationTransitionRefused } from './tokenization-errors';
import { decideTokenizationOutcome, type TokenizationRequest } from './tokenization-outcome';

/**
 * A card's token in a digital wallet (or at a merchant) as a decider on a stream of its own,
 * `tokenization-<token>`: decided once when the wallet asks for it, then moved between Lithic's
 * statuses. Not on the card's stream: a token's pause or deactivation is no change of the card, and
 * an authorization made through a token reads the token's stream and checks its version in its write.
 */

export const TOKENIZATION_STREAM_CATEGORY = 'tokenization';
export const tokenizationStreamId = (tokenizationToken: string): string => `${TOKENIZATION_STREAM_CATEGORY}-${tokenizationToken}`;
export const isTokenizationStream = (streamId: string): boolean => streamId.startsWith(`${TOKENIZATION_STREAM_CATEGORY}-`);

export const TOKENIZATION_STATUSES = ['ACTIVE', 'DEACTIVATED', 'INACTIVE', 'PAUSED', 'PENDING_2FA', 'PENDING_ACTIVATION', 'UNKNOWN'] as const;
export type TokenizationStatus = (typeof TOKENIZATION_STATUSES)[number];

export const TOKENIZATION_SOURCES = ['APPLE_PAY', 'GOOGLE', 'SAMSUNG_PAY', 'MERCHANT'] as const;
export type TokenizationSource = (typeof TOKENIZATION_SOURCES)[number];

export type TokenizationOutcome = 'APPROVED' | 'DECLINED' | 'REQUIRE_ADDITIONAL_AUTHENTICATION';
export type TokenizationAction = 'ACTIVATE' | 'PAUSE' | 'UNPAUSE' | 'DEACTIVATE';
export type ActivationMethod = 'EMAIL_TO_CARDHOLDER_ADDRESS' | 'TEXT_TO_CARDHOLDER_NUMBER';

/** The wallet a token's transactions name in `token_info.wallet_type` and the WALLET_TYPE rule attribute. */
export type TokenWalletType = 'APPLE_PAY' | 'GOOGLE_PAY' | 'SAMSUNG_PAY' | 'MERCHANT';

const WALLET_OF_SOURCE: Readonly<Record<TokenizationSource, TokenWalletType>> = { APPLE_PAY: 'APPLE_PAY', GOOGLE: 'GOOGLE_PAY', SAMSUNG_PAY: 'SAMSUNG_PAY', MERCHANT: 'MERCHANT' };

/** Lithic's `token_requestor_name`: the wallet, or UNKNOWN for a merchant's card-on-file token. */
export const tokenRequestorNameOf = (source: TokenizationSource): string => (source === 'MERCHANT' ? 'UNKNOWN' : WALLET_OF_SOURCE[source]);
export const walletTypeOf = (source: TokenizationSource): TokenWalletType => WALLET_OF_SOURCE[source];
export const tokenizationChannelOf = (source: TokenizationSource): 'DIGITAL_WALLET' | 'MERCHANT' => (source === 'MERCHANT' ? 'MERCHANT' : 'DIGITAL_WALLET');

/**
 * The network's reference for the token, made from its own token so that replay and every read give
 * the same one (the sandbox has no network to assign it): DNITHE, as Visa's references begin, and the
 * token's hex digits.
 */
export const tokenUniqueReferenceOf = (tokenizationToken: string): string => `DNITHE${tokenizationToken.replace(/-/g, '').toUpperCase()}`;

// ---------------------------------------------------------------- commands

export interface DecideTokenization extends TokenizationRequest {
  readonly type: 'DecideTokenization';
  readonly tokenizationToken: string;
  readonly eventToken: string;
}

export interface ChangeTokenizationStatus {
  readonly type: 'ChangeTokenizationStatus';
  readonly tokenizationToken: string;
  readonly programToken: string;
  readonly eventToken: string;
  readonly action: TokenizationAction;
}

export interface ResendActivationCode {
  readonly type: 'ResendActivationCode';
  readonly tokenizationToken: string;
  readonly programToken: string;
  readonly eventToken: string;
  readonly method: ActivationMethod;
}

export interface UpdateDigitalCardArt {
  readonly type: 'UpdateDigitalCardArt';
  readonly tokenizationToken: string;
  readonly programToken: string;
  readonly eventToken: string;
  readonly digitalCardArtToken: string | null;
}

export type TokenizationCommand = DecideTokenization | ChangeTokenizationStatus | ResendActivationCode | UpdateDigitalCardArt;

// ---------------------------------------------------------------- events

export interface TokenizationDecided {
  readonly type: 'TokenizationDecided';
  readonly data: {
    readonly tokenizationToken: string;
    readonly programToken: string;
    readonly cardToken: string;
    readonly eventToken: string;
    readonly source: TokenizationSource;
    readonly outcome: TokenizationOutcome;
    readonly declineReasons: readonly string[];
    readonly tfaReasons: readonly string[];
    readonly at: string;
  };
}

export interface TokenizationStatusChanged {
  readonly type: 'TokenizationStatusChanged';
  readonly data: { readonly tokenizationToken: string; readonly programToken: string; readonly eventToken: string; readonly action: TokenizationAction; readonly from: TokenizationStatus; readonly to: TokenizationStatus; readonly at: string };
}

export interface TokenizationActivationCodeResent {
  readonly type: 'TokenizationActivationCodeResent';
  readonly data: { readonly tokenizationToken: string; readonly programToken: string; readonly eventToken: string; readonly method: ActivationMethod; readonly at: string };
}

export interface TokenizationDigitalCardArtUpdated {
  readonly type: 'TokenizationDigitalCardArtUpdated';
  readonly data: { readonly tokenizationToken: string; readonly programToken: string; readonly eventToken: string; readonly digitalCardArtToken: string | null; readonly at: string };
}

export type TokenizationEvent = TokenizationDecided | TokenizationStatusChanged | TokenizationActivationCodeResent | TokenizationDigitalCardArtUpdated;

// ---------------------------------------------------------------- state

/** One entry of the token's history, as Lithic lists it in `events`. */
export interface TokenizationHistoryEntry {
  readonly eventToken: string;
  readonly at: string;
  readonly type: 'TOKENIZATION_AUTHORIZATION' | 'TOKENIZATION_UPDATED' | 'TOKENIZATION_2FA';
  readonly result: string;
  readonly declineReasons: readonly string[];
  readonly tfaReasons: readonly string[];
}

export interface ExistingTokenization {
  readonly status: 'existing';
  readonly tokenizationToken: string;
  readonly programToken: string;
  readonly cardToken: string;
  readonly source: TokenizationSource;
  readonly tokenStatus: TokenizationStatus;
  readonly digitalCardArtToken: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly history: readonly TokenizationHistoryEntry[];
}

export type Tokenization = { readonly status: 'absent' } | ExistingTokenization;

const STATUS_OF_OUTCOME: Readonly<Record<TokenizationOutcome, TokenizationStatus>> = {
  APPROVED: 'ACTIVE',
  // A refused token never reaches the device; DEACTIVATED is the status that can never spend or change.
  DECLINED: 'DEACTIVATED',
  REQUIRE_ADDITIONAL_AUTHENTICATION: 'PENDING_2FA',
};

const RESULT_OF_ACTION: Readonly<Record<TokenizationAction, string>> = { ACTIVATE: 'TOKEN_ACTIVATED', PAUSE: 'TOKEN_SUSPENDED', UNPAUSE: 'TOKEN_ACTIVATED', DEACTIVATE: 'TOKEN_DEACTIVATED' };

const entry = (eventToken: string, at: string, type: TokenizationHistoryEntry['type'], result: string): TokenizationHistoryEntry => ({ eventToken, at, type, result, declineReasons: [], tfaReasons: [] });

function updated(tokenization: Tokenization, at: string, history: TokenizationHistoryEntry, change: Partial<ExistingTokenization> = {}): Tokenization {
  if (tokenization.status !== 'existing') return tokenization;
  return { ...tokenization, ...change, updatedAt: at, history: [...tokenization.history, history] };
}

export function evolveTokenization(tokenization: Tokenization, event: TokenizationEvent): Tokenization {
  switch (event.type) {
    case 'TokenizationDecided': {
      const { tokenizationToken, programToken, cardToken, eventToken, source, outcome, declineReasons, tfaReasons, at } = event.data;
      const decided: TokenizationHistoryEntry = { eventToken, at, type: 'TOKENIZATION_AUTHORIZATION', result: outcome, declineReasons, tfaReasons };
      return { status: 'existing', tokenizationToken, programToken, cardToken, source, tokenStatus: STATUS_OF_OUTCOME[outcome], digitalCardArtToken: null, createdAt: at, updatedAt: at, history: [decided] };
    }
    case 'TokenizationStatusChanged': {
      const { eventToken, action, to, at } = event.data;
      return updated(tokenization, at, entry(eventToken, at, 'TOKENIZATION_UPDATED', RESULT_OF_ACTION[action]), { tokenStatus: to });
    }
    case 'TokenizationActivationCodeResent':
      return updated(tokenization, event.data.at, entry(event.data.eventToken, event.data.at, 'TOKENIZATION_2FA', 'NOTIFICATION_DELIVERED'));
    case 'TokenizationDigitalCardArtUpdated': {
      const { eventToken, digitalCardArtToken, at } = event.data;
      return updated(tokenization, at, entry(eventToken, at, 'TOKENIZATION_UPDATED', 'TOKEN_UPDATED'), { digitalCardArtToken });
    }
    default:
      return assertNever(event);
  }
}

// ---------------------------------------------------------------- decide

/** Which statuses each action leaves from, and where it goes. A DEACTIVATED token is final, as Lithic's is. */
const TRANSITIONS: Readonly<Record<TokenizationAction, { readonly from: readonly TokenizationStatus[]; readonly to: TokenizationStatus }>> = {
  ACTIVATE: { from: ['PENDING_2FA', 'PENDING_ACTIVATION', 'INACTIVE'], to: 'ACTIVE' },
  PAUSE: { from: ['ACTIVE'], to: 'PAUSED' },
  UNPAUSE: { from: ['PAUSED'], to: 'ACTIVE' },
  DEACTIVATE: { from: ['ACTIVE', 'INACTIVE', 'PAUSED', 'PENDING_2FA', 'PENDING_ACTIVATION', 'UNKNOWN'], to: 'DEACTIVATED' },
};

const PAST_TENSE: Readonly<Record<TokenizationAction, string>> = { ACTIVATE: 'activated', PAUSE: 'paused', UNPAUSE: 'unpaused', DEACTIVATE: 'deactivated' };

/** The program's token, or not found: another program's token is answered as a missing one. */
export function ownedTokenization(tokenization: Tokenization, tokenizationToken: string, programToken: string): ExistingTokenization {
  if (tokenization.status !== 'existing' || tokenization.programToken !== programToken) throw new TokenizationNotFound(tokenizationToken);
  return tokenization;
}

function decideStatusChange(command: ChangeTokenizationStatus, tokenization: Tokenization, at: string): TokenizationEvent[] {
  const existing = ownedTokenization(tokenization, command.tokenizationToken, command.programToken);
  const { from, to } = TRANSITIONS[command.action];
  if (!from.includes(existing.tokenStatus)) throw new TokenizationTransitionRefused(existing.tokenizationToken, PAST_TENSE[command.action], existing.tokenStatus);
  const { tokenizationToken, programToken } = existing;
  return [{ type: 'TokenizationStatusChanged', data: { tokenizationToken, programToken, eventToken: command.eventToken, action: command.action, from: existing.tokenStatus, to, at } }];
}

/** A code is only sent while the wallet waits for the cardholder to prove who they are. */
function decideResend(command: ResendActivationCode, tokenization: Tokenization, at: string): TokenizationEvent[] {
  const existing = ownedTokenization(tokenization, command.tokenizationToken, command.programToken);
  if (existing.tokenStatus !== 'PENDING_2FA' && existing.tokenStatus !== 'PENDING_ACTIVATION') throw new TokenizationTransitionRefused(existing.tokenizationToken, 'sent an activation code', existing.tokenStatus);
  const { tokenizationToken, programToken } = existing;
  return [{ type: 'TokenizationActivationCodeResent', data: { tokenizationToken, programToken, eventToken: command.eventToken, method: command.method, at } }];
}

function decideCardArt(command: UpdateDigitalCardArt, tokenization: Tokenization, at: string): TokenizationEvent[] {
  const existing = ownedTokenization(tokenization, command.tokenizationToken, command.programToken);
  if (existing.tokenStatus === 'DEACTIVATED') throw new TokenizationTransitionRefused(existing.tokenizationToken, 'given new card art', existing.tokenStatus);
  const { tokenizationToken, programToken } = existing;
  return [{ type: 'TokenizationDigitalCardArtUpdated', data: { tokenizationToken, programToken, eventToken: command.eventToken, digitalCardArtToken: command.digitalCardArtToken, at } }];
}

function decideNew(command: DecideTokenization, tokenization: Tokenization, at: string): TokenizationEvent[] {
  if (tokenization.status !== 'absent') return [];
  const { outcome, declineReasons, tfaReasons } = decideTokenizationOutcome(command);
  const { tokenizationToken, eventToken, card, source } = command;
  return [{ type: 'TokenizationDecided', data: { tokenizationToken, programToken: card.programToken, cardToken: card.cardToken, eventToken, source, outcome, declineReasons, tfaReasons, at } }];
}

export function decideTokenization(command: TokenizationCommand, tokenization: Tokenization, { now }: DecisionContext): TokenizationEvent[] {
  const at = now.toISOString();
  switch (command.type) {
    case 'DecideTokenization':
      return decideNew(command, tokenization, at);
    case 'ChangeTokenizationStatus':
      return decideStatusChange(command, tokenization, at);
    case 'ResendActivationCode':
      return decideResend(command, tokenization, at);
    case 'UpdateDigitalCardArt':
      return decideCardArt(command, tokenization, at);
    default:
      return assertNever(command);
  }
}

export const tokenizationDecider: Decider<TokenizationCommand, TokenizationEvent, Tokenization> = {
  initialState: () => ({ status: 'absent' }),
  decide: decideTokenization,
  evolve: evolveTokenization,
};
