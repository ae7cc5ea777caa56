import { AuthRuleScopeInvalid } from './auth-rule-errors';

/**
 * Which authorizations a rule runs on: every card of the program but the excluded ones, the cards of
 * the listed accounts, or the listed cards. An account here is the program itself (docs/decisions.md,
 * Cards), so an account-level rule names the program's own token and no other.
 */
export type AuthRuleScope =
  | { readonly level: 'PROGRAM'; readonly excludedCardTokens: readonly string[]; readonly excludedAccountTokens: readonly string[] }
  | { readonly level: 'ACCOUNT'; readonly accountTokens: readonly string[] }
  | { readonly level: 'CARD'; readonly cardTokens: readonly string[] };

/** The scope fields of a create or an update, as Lithic names them. */
export interface ScopeRequest {
  readonly programLevel?: boolean;
  readonly accountTokens?: readonly string[];
  readonly cardTokens?: readonly string[];
  readonly excludedCardTokens?: readonly string[];
  readonly excludedAccountTokens?: readonly string[];
  readonly businessAccountTokens?: readonly string[];
  readonly excludedBusinessAccountTokens?: readonly string[];
}

/** The card an authorization is on, as a scope sees it. */
export interface ScopedCard {
  readonly cardToken: string;
  readonly accountToken: string;
}

export function appliesTo(scope: AuthRuleScope, card: ScopedCard): boolean {
  switch (scope.level) {
    case 'PROGRAM':
      return !scope.excludedCardTokens.includes(card.cardToken) && !scope.excludedAccountTokens.includes(card.accountToken);
    case 'ACCOUNT':
      return scope.accountTokens.includes(card.accountToken);
    case 'CARD':
      return scope.cardTokens.includes(card.cardToken);
  }
}

/** The scope a new rule is created with: exactly one of program_level, account_tokens, card_tokens. */
export function scopeOf(request: ScopeRequest, programToken: string): AuthRuleScope {
  refuseBusinessAccounts(request);
  const forms = [request.programLevel === true, request.accountTokens !== undefined, request.cardTokens !== undefined].filter(Boolean).length;
  if (forms !== 1) throw new AuthRuleScopeInvalid('a rule applies to exactly one of program_level: true, account_tokens or card_tokens', 'program_level');
  return scopeFrom(request, programToken, null);
}

/**
 * The scope an update leaves: unchanged when it names no scope field, else the one its fields form
 * (Lithic: the given associations replace the existing ones). Exclusions alone keep a program-wide rule
 * program-wide with new exclusions.
 */
export function changedScope(current: AuthRuleScope, request: ScopeRequest, programToken: string): AuthRuleScope | null {
  refuseBusinessAccounts(request);
  const names = request.programLevel !== undefined || request.accountTokens !== undefined || request.cardTokens !== undefined;
  const exclusions = request.excludedCardTokens !== undefined || request.excludedAccountTokens !== undefined;
  if (!names && !exclusions) return null;
  if (!names) {
    if (current.level !== 'PROGRAM') throw new AuthRuleScopeInvalid('excluded_card_tokens and excluded_account_tokens apply only to a program-level rule', 'excluded_card_tokens');
    return scopeFrom({ ...request, programLevel: true }, programToken, current);
  }
  const forms = [request.programLevel === true, request.accountTokens !== undefined, request.cardTokens !== undefined].filter(Boolean).length;
  if (forms !== 1) throw new AuthRuleScopeInvalid('a rule applies to exactly one of program_level: true, account_tokens or card_tokens', 'program_level');
  return scopeFrom(request, programToken, current);
}

function scopeFrom(request: ScopeRequest, programToken: string, current: AuthRuleScope | null): AuthRuleScope {
  if (request.programLevel === true) {
    const kept = current?.level === 'PROGRAM' ? current : null;
    const excludedAccountTokens = uniqueTokens(request.excludedAccountTokens ?? kept?.excludedAccountTokens ?? []);
    refuseOtherAccounts(excludedAccountTokens, programToken, 'excluded_account_tokens');
    return { level: 'PROGRAM', excludedCardTokens: uniqueTokens(request.excludedCardTokens ?? kept?.excludedCardTokens ?? []), excludedAccountTokens };
  }
  if (request.excludedCardTokens !== undefined || request.excludedAccountTokens !== undefined) {
    throw new AuthRuleScopeInvalid('excluded_card_tokens and excluded_account_tokens apply only to a program-level rule', 'excluded_card_tokens');
  }
  if (request.accountTokens !== undefined) {
    const accountTokens = nonEmpty(uniqueTokens(request.accountTokens), 'account_tokens');
    refuseOtherAccounts(accountTokens, programToken, 'account_tokens');
    return { level: 'ACCOUNT', accountTokens };
  }
  return { level: 'CARD', cardTokens: nonEmpty(uniqueTokens(request.cardTokens ?? []), 'card_tokens') };
}

function refuseBusinessAccounts(request: ScopeRequest): void {
  if ((request.businessAccountTokens?.length ?? 0) > 0) throw new AuthRuleScopeInvalid('business_account_tokens: this service has no business accounts', 'business_account_tokens');
  if ((request.excludedBusinessAccountTokens?.length ?? 0) > 0) {
    throw new AuthRuleScopeInvalid('excluded_business_account_tokens: this service has no business accounts', 'excluded_business_account_tokens');
  }
}

function refuseOtherAccounts(tokens: readonly string[], programToken: string, field: string): void {
  const other = tokens.find((token) => token !== programToken);
  if (other !== undefined) throw new AuthRuleScopeInvalid(`${field}: account ${other} not found (an account here is the program itself)`, field);
}

function nonEmpty(tokens: readonly string[], field: string): readonly string[] {
  if (tokens.length === 0) throw new AuthRuleScopeInvalid(`${field} must name at least one token`, field);
  return tokens;
}

function uniqueTokens(tokens: readonly string[]): readonly string[] {
  return [...new Set(tokens)];
}

/** Every card token a scope names, included or excluded: what the handler checks the program owns. */
export function cardTokensNamed(scope: AuthRuleScope): readonly string[] {
  switch (scope.level) {
    case 'PROGRAM':
      return scope.excludedCardTokens;
    case 'ACCOUNT':
      return [];
    case 'CARD':
      return scope.cardTokens;
  }
}
