import { assertNever, Decider, DecisionContext } from '../core/decider';
import { Conflict, NotFound } from '../core/domain-error';
import { checkedEndpointUrl } from '../core/endpoint-url';
import { AdvanceProgramClock, advanceClock, ProgramClock, ProgramClockAdvanced } from './program-clock';

/**
 * A program owns cards, api-keys and funding sources. Api-keys appear here only as hashes: the clear
 * key is shown once, when it is issued, and never recorded.
 */
export const programStreamId = (programToken: string): string => `program-${programToken}`;

/** Privacy's funding source types and states; only these appear in the spec's samples so far. */
export const FUNDING_SOURCE_TYPES = ['DEPOSITORY_CHECKING', 'DEPOSITORY_SAVINGS', 'CARD_DEBIT'] as const;
export type FundingSourceType = (typeof FUNDING_SOURCE_TYPES)[number];
/**
 * ENABLED can be debited. PENDING is not yet verified, DISCONNECTED has lost its bank connection,
 * INSUFFICIENT_FUNDS cannot cover debits, DELETED is gone: each declines authorizations with its
 * own reason and bounces settlements (docs/declines.md).
 */
export const FUNDING_SOURCE_STATES = ['ENABLED', 'PENDING', 'DISCONNECTED', 'INSUFFICIENT_FUNDS', 'DELETED'] as const;
export type FundingSourceState = (typeof FUNDING_SOURCE_STATES)[number];

export interface FundingSource {
  readonly fundingToken: string;
  readonly type: FundingSourceType;
  readonly state: FundingSourceState;
  readonly nickname: string;
  readonly accountName: string;
  readonly lastFour: string;
  readonly created: string;
}

// ---------------------------------------------------------------- events

export interface ProgramCreated {
  readonly type: 'ProgramCreated';
  readonly data: { readonly programToken: string; readonly name: string; readonly created: string };
}

export interface ApiKeyIssued {
  readonly type: 'ApiKeyIssued';
  readonly data: { readonly programToken: string; readonly keyId: string; readonly keyHash: string; readonly created: string };
}

export interface ApiKeyRevoked {
  readonly type: 'ApiKeyRevoked';
  readonly data: { readonly programToken: string; readonly keyId: string };
}

export interface FundingSourceAdded {
  readonly type: 'FundingSourceAdded';
  readonly data: FundingSource & { readonly programToken: string; readonly isDefault: boolean };
}

export interface FundingSourceChanged {
  readonly type: 'FundingSourceChanged';
  readonly data: { readonly programToken: string; readonly fundingToken: string; readonly state?: FundingSourceState; readonly nickname?: string };
}

/** ACTIVE programs' cards may spend; PAUSED ones decline INACTIVE_ACCOUNT, CLOSED ones ACCOUNT_STATE_TRANSACTION_FAIL. */
export const PROGRAM_STATES = ['ACTIVE', 'PAUSED', 'CLOSED'] as const;
export type ProgramState = (typeof PROGRAM_STATES)[number];

/** Platform limits over all of a program's cards, in cents; 0 means none. */
export interface ProgramSpendLimits {
  readonly transaction: number;
  readonly weekly: number;
  readonly monthly: number;
}

/**
 * Lithic's account limits that the platform's own (above) lack, in cents; 0 means none. Lithic's
 * third, `monthly`, is the platform's monthly limit: one limit under two names.
 */
export interface AccountSpendLimits {
  readonly daily: number;
  readonly lifetime: number;
}

export const NO_ACCOUNT_SPEND_LIMITS: AccountSpendLimits = { daily: 0, lifetime: 0 };

export interface VelocityRule {
  readonly maxAuthorizations: number;
  readonly windowSeconds: number;
}

export interface ProgramSettingsChanged {
  readonly type: 'ProgramSettingsChanged';
  readonly data: {
    readonly programToken: string;
    readonly state?: ProgramState;
    readonly spendLimits?: ProgramSpendLimits;
    /** Present only when they change, so a change of the platform's limits alone records what it did before. */
    readonly accountSpendLimits?: AccountSpendLimits;
    /** null switches the rule off. */
    readonly velocityRule?: VelocityRule | null;
    /** The whole list: descriptors or acceptor ids, compared without regard to case. */
    readonly blockedMerchants?: readonly string[];
  };
}

/** The program's own endpoint, asked to approve every authorization its cards' own checks pass. */
export interface AuthorizationStream {
  readonly url: string;
  readonly timeoutMs: number;
  /** The whsec_ signing secret, sealed with the card data key. */
  readonly secretSealed: string;
}

export interface AuthorizationStreamEnrolled {
  readonly type: 'AuthorizationStreamEnrolled';
  readonly data: AuthorizationStream & { readonly programToken: string };
}

/** The stream keeps its endpoint; requests are signed with the new secret from now on. */
export interface AuthorizationStreamSecretRotated {
  readonly type: 'AuthorizationStreamSecretRotated';
  readonly data: { readonly programToken: string; readonly secretSealed: string };
}

export interface AuthorizationStreamDisenrolled {
  readonly type: 'AuthorizationStreamDisenrolled';
  readonly data: { readonly programToken: string };
}

export type ProgramEvent =
  | ProgramCreated
  | ApiKeyIssued
  | ApiKeyRevoked
  | FundingSourceAdded
  | FundingSourceChanged
  | ProgramSettingsChanged
  | AuthorizationStreamEnrolled
  | AuthorizationStreamSecretRotated
  | AuthorizationStreamDisenrolled
  | ProgramClockAdvanced;

// ---------------------------------------------------------------- state

export type Program =
  | { readonly status: 'absent' }
  | {
      readonly status: 'active';
      readonly programToken: string;
      readonly name: string;
      /** When the program (its account) was created: what ACCOUNT_AGE reads. */
      readonly created: string;
      readonly apiKeyIds: readonly string[];
      readonly fundingSources: readonly FundingSource[];
      readonly defaultFundingToken: string | null;
      readonly state: ProgramState;
      readonly spendLimits: ProgramSpendLimits;
      readonly accountSpendLimits: AccountSpendLimits;
      readonly velocityRule: VelocityRule | null;
      readonly blockedMerchants: readonly string[];
      readonly authorizationStream: AuthorizationStream | null;
      /** null: the program's clock is the wall clock (it was never advanced). */
      readonly clock: ProgramClock | null;
    };

export type ExistingProgram = Extract<Program, { status: 'active' }>;

// ---------------------------------------------------------------- commands

export interface IssuedKey {
  readonly keyId: string;
  readonly keyHash: string;
}

export interface CreateProgram {
  readonly type: 'CreateProgram';
  readonly programToken: string;
  readonly name: string;
  readonly apiKey: IssuedKey;
  readonly defaultFundingSource: Omit<FundingSource, 'created' | 'state' | 'type'>;
}

export interface IssueApiKey {
  readonly type: 'IssueApiKey';
  readonly programToken: string;
  readonly apiKey: IssuedKey;
}

export interface RevokeApiKey {
  readonly type: 'RevokeApiKey';
  readonly programToken: string;
  readonly keyId: string;
}

export interface AddFundingSource {
  readonly type: 'AddFundingSource';
  readonly programToken: string;
  readonly source: Omit<FundingSource, 'created'>;
}

export interface UpdateFundingSource {
  readonly type: 'UpdateFundingSource';
  readonly programToken: string;
  readonly fundingToken: string;
  readonly state?: FundingSourceState;
  readonly nickname?: string;
}

export interface UpdateProgramSettings {
  readonly type: 'UpdateProgramSettings';
  readonly programToken: string;
  readonly state?: ProgramState;
  readonly spendLimits?: Partial<ProgramSpendLimits>;
  readonly accountSpendLimits?: Partial<AccountSpendLimits>;
  readonly velocityRule?: VelocityRule | null;
  readonly blockedMerchants?: readonly string[];
}

/** Stripe gives an authorization endpoint 2 s; Lithic allows 6 s. */
export const DEFAULT_AUTHORIZATION_STREAM_TIMEOUT_MS = 2000;

export interface EnrollAuthorizationStream {
  readonly type: 'EnrollAuthorizationStream';
  readonly programToken: string;
  readonly url: string;
  /**
   * Absent (Lithic's responder endpoints name no timeout): the enrolled stream keeps its own, a new
   * one gets the default.
   */
  readonly timeoutMs?: number;
  /** Used only when the program has no stream yet: re-enrolling keeps the secret. */
  readonly newSecretSealed: string;
}

/** Lithic's `auth_stream/secret/rotate`: a new signing secret for the enrolled stream. */
export interface RotateAuthorizationStreamSecret {
  readonly type: 'RotateAuthorizationStreamSecret';
  readonly programToken: string;
  readonly newSecretSealed: string;
}

export interface DisenrollAuthorizationStream {
  readonly type: 'DisenrollAuthorizationStream';
  readonly programToken: string;
}

export type ProgramCommand =
  | CreateProgram
  | IssueApiKey
  | RevokeApiKey
  | AddFundingSource
  | UpdateFundingSource
  | UpdateProgramSettings
  | EnrollAuthorizationStream
  | RotateAuthorizationStreamSecret
  | DisenrollAuthorizationStream
  | AdvanceProgramClock;

export class AuthorizationStreamNotEnrolled extends NotFound {
  static override readonly code = 'authorization_stream_not_enrolled';
  constructor() {
    super('No authorization stream is enrolled');
  }
}

export class ProgramNotFound extends NotFound {
  static override readonly code = 'program_not_found';
  constructor(readonly programToken: string) {
    super(`Program ${programToken} not found`);
  }
}

export class ProgramAlreadyExists extends Conflict {
  static override readonly code = 'program_already_exists';
  constructor(readonly programToken: string) {
    super(`Program ${programToken} already exists`);
  }
}

export class ApiKeyNotFound extends NotFound {
  static override readonly code = 'api_key_not_found';
  constructor(readonly keyId: string) {
    super(`Api key ${keyId} not found`);
  }
}

export class FundingSourceNotFound extends NotFound {
  static override readonly code = 'funding_source_not_found';
  constructor(readonly fundingToken: string) {
    super(`Funding source ${fundingToken} not found`, 'funding_token');
  }
}

// ---------------------------------------------------------------- decide

function existing(program: Program, programToken: string): ExistingProgram {
  if (program.status === 'absent') throw new ProgramNotFound(programToken);
  return program;
}

export function decideProgram(command: ProgramCommand, program: Program, { now }: DecisionContext): ProgramEvent[] {
  const created = now.toISOString();
  switch (command.type) {
    case 'CreateProgram': {
      if (program.status !== 'absent') throw new ProgramAlreadyExists(command.programToken);
      const { programToken } = command;
      return [
        { type: 'ProgramCreated', data: { programToken, name: command.name, created } },
        { type: 'ApiKeyIssued', data: { programToken, ...command.apiKey, created } },
        {
          type: 'FundingSourceAdded',
          data: { programToken, ...command.defaultFundingSource, type: 'DEPOSITORY_CHECKING', state: 'ENABLED', created, isDefault: true },
        },
      ];
    }
    case 'IssueApiKey':
      existing(program, command.programToken);
      return [{ type: 'ApiKeyIssued', data: { programToken: command.programToken, ...command.apiKey, created } }];
    case 'RevokeApiKey': {
      const active = existing(program, command.programToken);
      if (!active.apiKeyIds.includes(command.keyId)) throw new ApiKeyNotFound(command.keyId);
      return [{ type: 'ApiKeyRevoked', data: { programToken: command.programToken, keyId: command.keyId } }];
    }
    case 'AddFundingSource':
      existing(program, command.programToken);
      return [{ type: 'FundingSourceAdded', data: { programToken: command.programToken, ...command.source, created, isDefault: false } }];
    case 'UpdateFundingSource': {
      const active = existing(program, command.programToken);
      const source = active.fundingSources.find((candidate) => candidate.fundingToken === command.fundingToken);
      if (!source) throw new FundingSourceNotFound(command.fundingToken);
      const changes = {
        ...(command.state !== undefined && command.state !== source.state ? { state: command.state } : {}),
        ...(command.nickname !== undefined && command.nickname !== source.nickname ? { nickname: command.nickname } : {}),
      };
      if (Object.keys(changes).length === 0) return [];
      return [{ type: 'FundingSourceChanged', data: { programToken: command.programToken, fundingToken: command.fundingToken, ...changes } }];
    }
    case 'UpdateProgramSettings':
      return settingsChanges(command, existing(program, command.programToken));
    case 'EnrollAuthorizationStream': {
      const active = existing(program, command.programToken);
      checkedEndpointUrl(command.url);
      const current = active.authorizationStream;
      const timeoutMs = command.timeoutMs ?? current?.timeoutMs ?? DEFAULT_AUTHORIZATION_STREAM_TIMEOUT_MS;
      if (current && current.url === command.url && current.timeoutMs === timeoutMs) return [];
      const secretSealed = current?.secretSealed ?? command.newSecretSealed;
      return [{ type: 'AuthorizationStreamEnrolled', data: { programToken: command.programToken, url: command.url, timeoutMs, secretSealed } }];
    }
    case 'RotateAuthorizationStreamSecret': {
      const active = existing(program, command.programToken);
      // A secret exists only with an enrolled stream (enrolling makes one), so there is none to rotate.
      if (!active.authorizationStream) throw new AuthorizationStreamNotEnrolled();
      return [{ type: 'AuthorizationStreamSecretRotated', data: { programToken: command.programToken, secretSealed: command.newSecretSealed } }];
    }
    case 'DisenrollAuthorizationStream': {
      const active = existing(program, command.programToken);
      if (!active.authorizationStream) return [];
      return [{ type: 'AuthorizationStreamDisenrolled', data: { programToken: command.programToken } }];
    }
    case 'AdvanceProgramClock':
      return advanceClock(command, existing(program, command.programToken).clock, now);
    default:
      return assertNever(command);
  }
}

function settingsChanges(command: UpdateProgramSettings, program: ExistingProgram): ProgramEvent[] {
  const spendLimits = command.spendLimits ? mergedLimits(program.spendLimits, command.spendLimits) : undefined;
  const accountSpendLimits = command.accountSpendLimits ? mergedAccountLimits(program.accountSpendLimits, command.accountSpendLimits) : undefined;
  const velocityRule = command.velocityRule && { maxAuthorizations: command.velocityRule.maxAuthorizations, windowSeconds: command.velocityRule.windowSeconds };
  const changes = {
    ...(command.state !== undefined && command.state !== program.state ? { state: command.state } : {}),
    ...(spendLimits && !sameLimits(spendLimits, program.spendLimits) ? { spendLimits } : {}),
    ...(accountSpendLimits && !sameAccountLimits(accountSpendLimits, program.accountSpendLimits) ? { accountSpendLimits } : {}),
    ...(velocityRule !== undefined && !sameVelocityRule(velocityRule, program.velocityRule) ? { velocityRule } : {}),
    ...(command.blockedMerchants !== undefined && JSON.stringify(command.blockedMerchants) !== JSON.stringify(program.blockedMerchants)
      ? { blockedMerchants: command.blockedMerchants }
      : {}),
  };
  if (Object.keys(changes).length === 0) return [];
  return [{ type: 'ProgramSettingsChanged', data: { programToken: program.programToken, ...changes } }];
}

/** A limit left out (or given as undefined) keeps its current value. */
function mergedLimits(current: ProgramSpendLimits, given: Partial<ProgramSpendLimits>): ProgramSpendLimits {
  return { transaction: given.transaction ?? current.transaction, weekly: given.weekly ?? current.weekly, monthly: given.monthly ?? current.monthly };
}

function sameLimits(a: ProgramSpendLimits, b: ProgramSpendLimits): boolean {
  return a.transaction === b.transaction && a.weekly === b.weekly && a.monthly === b.monthly;
}

function mergedAccountLimits(current: AccountSpendLimits, given: Partial<AccountSpendLimits>): AccountSpendLimits {
  return { daily: given.daily ?? current.daily, lifetime: given.lifetime ?? current.lifetime };
}

function sameAccountLimits(a: AccountSpendLimits, b: AccountSpendLimits): boolean {
  return a.daily === b.daily && a.lifetime === b.lifetime;
}

function sameVelocityRule(a: VelocityRule | null, b: VelocityRule | null): boolean {
  if (a === null || b === null) return a === b;
  return a.maxAuthorizations === b.maxAuthorizations && a.windowSeconds === b.windowSeconds;
}

/** Is this merchant on the program's blocklist (by descriptor or acceptor id, ignoring case)? */
export function isMerchantBlocked(program: ExistingProgram, merchant: { descriptor: string; acceptorId: string }): boolean {
  const names = new Set([merchant.descriptor.trim().toLowerCase(), merchant.acceptorId.trim().toLowerCase()].filter((name) => name !== ''));
  return program.blockedMerchants.some((blocked) => names.has(blocked.trim().toLowerCase()));
}

/** A funding source's state as the program has it now; one the program no longer has is DELETED. */
export function fundingStateOf(program: ExistingProgram, fundingToken: string): FundingSourceState {
  return program.fundingSources.find((source) => source.fundingToken === fundingToken)?.state ?? 'DELETED';
}

/** The funding source a new card uses: the one named, which must belong to the program, or the default. */
export function resolveFundingSource(program: ExistingProgram, fundingToken: string | undefined): FundingSource {
  const wanted = fundingToken ?? program.defaultFundingToken;
  const source = program.fundingSources.find((candidate) => candidate.fundingToken === wanted);
  if (!source) throw new FundingSourceNotFound(fundingToken ?? '(default)');
  return source;
}

// ---------------------------------------------------------------- evolve

export function evolveProgram(program: Program, event: ProgramEvent): Program {
  switch (event.type) {
    case 'ProgramCreated':
      return {
        status: 'active',
        programToken: event.data.programToken,
        name: event.data.name,
        created: event.data.created,
        apiKeyIds: [],
        fundingSources: [],
        defaultFundingToken: null,
        state: 'ACTIVE',
        spendLimits: { transaction: 0, weekly: 0, monthly: 0 },
        accountSpendLimits: NO_ACCOUNT_SPEND_LIMITS,
        velocityRule: null,
        blockedMerchants: [],
        authorizationStream: null,
        clock: null,
      };
    case 'ApiKeyIssued':
      return program.status === 'active' ? { ...program, apiKeyIds: [...program.apiKeyIds, event.data.keyId] } : program;
    case 'ApiKeyRevoked':
      return program.status === 'active'
        ? { ...program, apiKeyIds: program.apiKeyIds.filter((id) => id !== event.data.keyId) }
        : program;
    case 'FundingSourceAdded': {
      if (program.status !== 'active') return program;
      const { programToken: _program, isDefault, ...source } = event.data;
      return {
        ...program,
        fundingSources: [...program.fundingSources, source],
        defaultFundingToken: isDefault ? source.fundingToken : program.defaultFundingToken,
      };
    }
    case 'FundingSourceChanged': {
      if (program.status !== 'active') return program;
      const { programToken: _program, fundingToken, ...changes } = event.data;
      return {
        ...program,
        fundingSources: program.fundingSources.map((source) => (source.fundingToken === fundingToken ? { ...source, ...changes } : source)),
      };
    }
    case 'AuthorizationStreamEnrolled': {
      if (program.status !== 'active') return program;
      const { programToken: _program, ...stream } = event.data;
      return { ...program, authorizationStream: stream };
    }
    case 'AuthorizationStreamSecretRotated':
      if (program.status !== 'active' || !program.authorizationStream) return program;
      return { ...program, authorizationStream: { ...program.authorizationStream, secretSealed: event.data.secretSealed } };
    case 'AuthorizationStreamDisenrolled':
      return program.status === 'active' ? { ...program, authorizationStream: null } : program;
    case 'ProgramSettingsChanged': {
      if (program.status !== 'active') return program;
      const { programToken: _program, ...changes } = event.data;
      return { ...program, ...changes } as ExistingProgram;
    }
    case 'ProgramClockAdvanced': {
      if (program.status !== 'active') return program;
      const { programToken: _program, ...clock } = event.data;
      return { ...program, clock };
    }
    default:
      return assertNever(event);
  }
}

export const programDecider: Decider<ProgramCommand, ProgramEvent, Program> = {
  initialState: () => ({ status: 'absent' }),
  decide: decideProgram,
  evolve: evolveProgram,
};
