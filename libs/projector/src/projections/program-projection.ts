import type { ApiKeyIssued, FundingSourceAdded, FundingSourceChanged, ProgramCreated, ProgramEvent, ProgramSettingsChanged } from '@ledger/domain';
import type { RecordedEvent } from '@ledger/event-store';
import type { ApiKey, FundingSource, Program } from '@ledger/read-model';
import { existing, ProjectionRows } from './projection-rows';
import type { Projection } from './projection';

const PROGRAM_EVENTS = ['ProgramCreated', 'ProgramSettingsChanged', 'ApiKeyIssued', 'ApiKeyRevoked', 'FundingSourceAdded', 'FundingSourceChanged'] as const;
type Handled = Extract<ProgramEvent, { type: (typeof PROGRAM_EVENTS)[number] }>;

/** Programs, their api-key hashes (what authentication looks up) and funding sources. */
export class ProgramProjection implements Projection<Handled['type']> {
  readonly events = PROGRAM_EVENTS;

  need(event: Handled, rows: ProjectionRows): void {
    switch (event.type) {
      case 'ProgramCreated':
      case 'ProgramSettingsChanged':
        rows.programs.need(event.data.programToken);
        return;
      case 'ApiKeyRevoked':
        rows.apiKeys.need(event.data.keyId);
        return;
      case 'FundingSourceChanged':
        rows.fundingSources.need(event.data.fundingToken);
        return;
      case 'ApiKeyIssued':
      case 'FundingSourceAdded':
        return;
    }
  }

  apply(event: Handled, _recorded: RecordedEvent, rows: ProjectionRows): void {
    switch (event.type) {
      case 'ProgramCreated':
        rows.programs.set(event.data.programToken, programCreated(rows.programs.get(event.data.programToken), event));
        return;
      case 'ProgramSettingsChanged': {
        const token = event.data.programToken;
        rows.programs.set(token, programSettingsChanged(existing(rows.programs.get(token), 'programs', token, event.type), event));
        return;
      }
      case 'ApiKeyIssued':
        rows.apiKeys.set(event.data.keyId, apiKeyIssued(event));
        return;
      case 'ApiKeyRevoked': {
        const keyId = event.data.keyId;
        rows.apiKeys.set(keyId, { ...existing(rows.apiKeys.get(keyId), 'api_keys', keyId, event.type), revoked: true });
        return;
      }
      case 'FundingSourceAdded':
        rows.fundingSources.set(event.data.fundingToken, fundingSourceAdded(event));
        return;
      case 'FundingSourceChanged': {
        const token = event.data.fundingToken;
        rows.fundingSources.set(token, fundingSourceChanged(existing(rows.fundingSources.get(token), 'funding_sources', token, event.type), event));
        return;
      }
    }
  }
}

/**
 * A new programs row takes the table's column defaults for its settings (see schema.prisma; the
 * projector spec checks they agree). A repeated ProgramCreated sets the name and created only and
 * keeps the settings, as the upsert it replaces did.
 */
export function programCreated(row: Program | null, event: ProgramCreated): Program {
  const { programToken, name, created } = event.data;
  const set = { name, created: new Date(created) };
  if (row) return { ...row, ...set };
  return {
    token: programToken,
    ...set,
    state: 'ACTIVE',
    spendLimitTransaction: 0n,
    spendLimitWeekly: 0n,
    spendLimitMonthly: 0n,
    spendLimitDaily: 0n,
    spendLimitLifetime: 0n,
    velocityMaxAuthorizations: null,
    velocityWindowSeconds: null,
    blockedMerchants: [],
  };
}

/** The settings the event carries; a null velocity rule turns it off. */
export function programSettingsChanged(row: Program, event: ProgramSettingsChanged): Program {
  const { state, spendLimits, accountSpendLimits, velocityRule, blockedMerchants } = event.data;
  return {
    ...row,
    ...(state === undefined ? {} : { state }),
    ...(spendLimits === undefined
      ? {}
      : {
          spendLimitTransaction: BigInt(spendLimits.transaction),
          spendLimitWeekly: BigInt(spendLimits.weekly),
          spendLimitMonthly: BigInt(spendLimits.monthly),
        }),
    ...(accountSpendLimits === undefined ? {} : { spendLimitDaily: BigInt(accountSpendLimits.daily), spendLimitLifetime: BigInt(accountSpendLimits.lifetime) }),
    ...(velocityRule === undefined
      ? {}
      : { velocityMaxAuthorizations: velocityRule?.maxAuthorizations ?? null, velocityWindowSeconds: velocityRule?.windowSeconds ?? null }),
    ...(blockedMerchants === undefined ? {} : { blockedMerchants: [...blockedMerchants] }),
  };
}

/** The whole row: a repeated ApiKeyIssued resets every column. */
export function apiKeyIssued(event: ApiKeyIssued): ApiKey {
  const { keyId, keyHash, programToken, created } = event.data;
  return { keyId, keyHash, programToken, created: new Date(created), revoked: false };
}

/** The whole row: a repeated FundingSourceAdded resets every column. */
export function fundingSourceAdded(event: FundingSourceAdded): FundingSource {
  const { fundingToken, programToken, type, state, nickname, accountName, lastFour, isDefault, created } = event.data;
  return { token: fundingToken, programToken, type, state, nickname, accountName, lastFour, isDefault, created: new Date(created) };
}

/** The changed fields only. */
export function fundingSourceChanged(row: FundingSource, event: FundingSourceChanged): FundingSource {
  const { state, nickname } = event.data;
  return { ...row, ...(state === undefined ? {} : { state }), ...(nickname === undefined ? {} : { nickname }) };
}
