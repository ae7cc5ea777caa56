import type { AccountSpendLimits, FundingSourceState, FundingSourceType, ProgramSpendLimits, ProgramState, VelocityRule } from '@ledger/domain';
import { type CommandOrigin } from './command-origin';

export interface ProgramCreatedResult {
  readonly programToken: string;
  readonly apiKey: string;
  readonly keyId: string;
  readonly position: string;
}

/** Creates a program with a first api-key and a default funding source. */
export class CreateProgramCommand {
  constructor(
    readonly correlationId: string,
    readonly name: string,
    /** Fixed token (the sandbox program's); a new one is made when absent. */
    readonly programToken?: string,
    /** A clear key chosen by the operator (SANDBOX_API_KEY); a new one is made when absent. */
    readonly apiKey?: string,
  ) {}
}

export interface ApiKeyIssuedResult {
  readonly programToken: string;
  readonly apiKey: string;
  readonly keyId: string;
  readonly position: string;
}

export class IssueApiKeyCommand {
  constructor(
    readonly origin: CommandOrigin,
    readonly apiKey?: string,
  ) {}
}

export class RevokeApiKeyCommand {
  constructor(
    readonly origin: CommandOrigin,
    readonly keyId: string,
  ) {}
}

export class UpdateProgramSettingsCommand {
  constructor(
    readonly origin: CommandOrigin,
    readonly settings: {
      readonly state?: ProgramState;
      readonly spendLimits?: Partial<ProgramSpendLimits>;
      readonly accountSpendLimits?: Partial<AccountSpendLimits>;
      readonly velocityRule?: VelocityRule | null;
      readonly blockedMerchants?: readonly string[];
    },
  ) {}
}

/** Sandbox test clock: moves the program's clock forward to `frozenTime` (UTC ISO 8601). */
export class AdvanceProgramClockCommand {
  constructor(
    readonly origin: CommandOrigin,
    readonly frozenTime: string,
  ) {}
}

export class AddFundingSourceCommand {
  constructor(
    readonly origin: CommandOrigin,
    readonly source: {
      readonly accountName: string;
      readonly accountNumber?: string;
      readonly nickname?: string;
      readonly type?: FundingSourceType;
      readonly state?: FundingSourceState;
    },
  ) {}
}

export class UpdateFundingSourceCommand {
  constructor(
    readonly origin: CommandOrigin,
    readonly fundingToken: string,
    readonly changes: { readonly state?: FundingSourceState; readonly nickname?: string },
  ) {}
}

export interface AuthorizationStreamSettings {
  readonly url: string;
  readonly timeoutMs: number;
  /** The whsec_ secret requests are signed with. */
  readonly secret: string;
  readonly position: string | null;
}

export class EnrollAuthorizationStreamCommand {
  constructor(
    readonly origin: CommandOrigin,
    readonly url: string,
    /** Undefined (a Lithic responder endpoint): the enrolled stream's own, or the default for a new one. */
    readonly timeoutMs: number | undefined,
  ) {}
}

/** Lithic's secret rotation: answers the new secret (the route itself answers nothing, as Lithic's does). */
export class RotateAuthorizationStreamSecretCommand {
  constructor(readonly origin: CommandOrigin) {}
}

export class DisenrollAuthorizationStreamCommand {
  constructor(readonly origin: CommandOrigin) {}
}
