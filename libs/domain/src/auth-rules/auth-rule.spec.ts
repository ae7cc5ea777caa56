import { deciderSpecification } from '@ledger/test-support';
import { foldEvents } from '../core/decider';
import { AuthRuleEvent, authRuleDecider, AuthRuleCommand, CreateAuthRule, versionStates } from './auth-rule';
import { AuthRuleAlreadyExists, AuthRuleHasNoDraft, AuthRuleNotFound, AuthRuleParametersInvalid, AuthRuleScopeInvalid, AuthRuleStateNotAllowed } from './auth-rule-errors';
import { cardToken, now, otherProgramToken, programToken } from '../../test/fixtures';

const spec = deciderSpecification(authRuleDecider, { now });
const foldAuthRule = (events: readonly AuthRuleEvent[]) => foldEvents(authRuleDecider, events);
const authRuleToken = '5a1f0d2e-8c3b-4e6f-9a7d-0b1c2d3e4f50';
const at = now.toISOString();
const otherCard = '11111111-2222-4333-8444-555555555555';

const blockGambling = { action: 'DECLINE', conditions: [{ attribute: 'MCC', operation: 'IS_ONE_OF', value: ['7995'] }] } as const;
const blockCasinos = { action: 'DECLINE', conditions: [{ attribute: 'MCC', operation: 'IS_ONE_OF', value: ['7995', '7800'] }] } as const;

const create = (overrides: Partial<CreateAuthRule> = {}): CreateAuthRule => ({
  type: 'CreateAuthRule',
  authRuleToken,
  programToken,
  name: 'No gambling',
  ruleType: 'CONDITIONAL_ACTION',
  parameters: blockGambling,
  scope: { programLevel: true },
  ...overrides,
});

const created: AuthRuleEvent = {
  type: 'AuthRuleCreated',
  data: { authRuleToken, programToken, name: 'No gambling', ruleType: 'CONDITIONAL_ACTION', scope: { level: 'PROGRAM', excludedCardTokens: [], excludedAccountTokens: [] }, parameters: blockGambling, created: at },
};
const promoted = (version: number): AuthRuleEvent => ({ type: 'AuthRulePromoted', data: { authRuleToken, version, at } });
const drafted = (version: number, parameters = blockCasinos): AuthRuleEvent => ({ type: 'AuthRuleDrafted', data: { authRuleToken, version, parameters, at } });
const deactivated: AuthRuleEvent = { type: 'AuthRuleDeactivated', data: { authRuleToken, at } };
const deleted: AuthRuleEvent = { type: 'AuthRuleDeleted', data: { authRuleToken, at } };

const command = <C extends AuthRuleCommand['type']>(type: C, rest: Omit<Extract<AuthRuleCommand, { type: C }>, 'type' | 'authRuleToken' | 'programToken'>) =>
  ({ type, authRuleToken, programToken, ...rest }) as unknown as Extract<AuthRuleCommand, { type: C }>;

describe('auth rule aggregate', () => {
  describe('create', () => {
    it('creates a program-wide rule whose parameters are its first draft, version 1', () => {
      spec.given([]).when(create()).then([created]);
    });

    it('creates a card-level rule', () => {
      spec
        .given([])
        .when(create({ scope: { cardTokens: [cardToken, cardToken] } }))
        .then([{ ...created, data: { ...created.data, scope: { level: 'CARD', cardTokens: [cardToken] } } } as AuthRuleEvent]);
    });

    it("creates an account-level rule on the program's own account", () => {
      spec
        .given([])
        .when(create({ scope: { accountTokens: [programToken] } }))
        .then([{ ...created, data: { ...created.data, scope: { level: 'ACCOUNT', accountTokens: [programToken] } } } as AuthRuleEvent]);
    });

    it('keeps the excluded cards of a program-wide rule', () => {
      spec
        .given([])
        .when(create({ scope: { programLevel: true, excludedCardTokens: [cardToken] } }))
        .then([{ ...created, data: { ...created.data, scope: { level: 'PROGRAM', excludedCardTokens: [cardToken], excludedAccountTokens: [] } } } as AuthRuleEvent]);
    });

    it('refuses an account other than the program', () => {
      spec.given([]).when(create({ scope: { accountTokens: [otherProgramToken] } })).thenThrows(AuthRuleScopeInvalid, 'account_tokens');
    });

    it.each([
      ['no scope', {}],
      ['two scopes', { programLevel: true, cardTokens: [cardToken] }],
      ['program_level false alone', { programLevel: false }],
      ['an empty card list', { cardTokens: [] }],
      ['exclusions on a card-level rule', { cardTokens: [cardToken], excludedCardTokens: [otherCard] }],
      ['business accounts', { programLevel: true, businessAccountTokens: [programToken] }],
    ])('refuses %s', (_name, scope) => {
      spec.given([]).when(create({ scope })).thenThrows(AuthRuleScopeInvalid);
    });

    it('refuses an event stream other than AUTHORIZATION', () => {
      spec.given([]).when(create({ eventStream: 'TOKENIZATION' })).thenThrows(AuthRuleParametersInvalid, 'event_stream');
    });

    it('refuses parameters that do not fit the type', () => {
      spec.given([]).when(create({ ruleType: 'VELOCITY_LIMIT' })).thenThrows(AuthRuleParametersInvalid);
    });

    it('creates an ACCOUNT velocity limit, counted on a stream of its own', () => {
      const parameters = { scope: 'ACCOUNT', period: { type: 'DAY' }, limit_count: 3 } as const;
      spec
        .given([])
        .when(create({ ruleType: 'VELOCITY_LIMIT', parameters }))
        .then([{ ...created, data: { ...created.data, ruleType: 'VELOCITY_LIMIT', parameters: { ...parameters, limit_amount: null } } } as AuthRuleEvent]);
    });

    it('refuses a second create of the same token', () => {
      spec.given([created]).when(create()).thenThrows(AuthRuleAlreadyExists);
    });
  });

  describe('draft and promote', () => {
    it('promotes the draft: it becomes the current version', () => {
      spec.given([created]).when(command('PromoteAuthRule', {})).then([promoted(1)]);
    });

    it('drafts new parameters as the next version, beside the current one', () => {
      spec.given([created, promoted(1)]).when(command('DraftAuthRule', { parameters: blockCasinos })).then([drafted(2)]);
    });

    it('numbers a draft after every version ever drafted, discarded ones included', () => {
      const discarded: AuthRuleEvent = { type: 'AuthRuleDraftDiscarded', data: { authRuleToken, version: 2, at } };
      spec.given([created, promoted(1), drafted(2), discarded]).when(command('DraftAuthRule', { parameters: blockCasinos })).then([drafted(3)]);
    });

    it('discards the draft when the parameters are null', () => {
      spec
        .given([created, promoted(1), drafted(2)])
        .when(command('DraftAuthRule', { parameters: null }))
        .then([{ type: 'AuthRuleDraftDiscarded', data: { authRuleToken, version: 2, at } }]);
    });

    it('discards nothing when there is no draft', () => {
      spec.given([created, promoted(1)]).when(command('DraftAuthRule', { parameters: null })).then([]);
    });

    it("reads a draft's parameters as the rule's own type", () => {
      spec
        .given([created])
        .when(command('DraftAuthRule', { parameters: { merchants: [{ descriptor: 'SHOP' }] } }))
        .thenThrows(AuthRuleParametersInvalid, 'action');
    });

    it('refuses to promote without a draft', () => {
      spec.given([created, promoted(1)]).when(command('PromoteAuthRule', {})).thenThrows(AuthRuleHasNoDraft);
    });

    it('activates an INACTIVE rule by promoting a draft', () => {
      const rule = foldAuthRule([created, promoted(1), deactivated, drafted(2), promoted(2)]);
      expect(rule.status === 'existing' && { state: rule.state, current: rule.current?.version, draft: rule.draft }).toEqual({ state: 'ACTIVE', current: 2, draft: null });
    });
  });

  describe('update', () => {
    it('deactivates', () => spec.given([created, promoted(1)]).when(command('UpdateAuthRule', { state: 'INACTIVE', scope: {} })).then([deactivated]));

    it('deactivates once', () => spec.given([created, deactivated]).when(command('UpdateAuthRule', { state: 'INACTIVE', scope: {} })).then([]));

    it('refuses ACTIVE: promote activates', () => {
      spec.given([created, deactivated]).when(command('UpdateAuthRule', { state: 'ACTIVE', scope: {} })).thenThrows(AuthRuleStateNotAllowed);
    });

    it('renames, and clears the name with null', () => {
      spec.given([created]).when(command('UpdateAuthRule', { name: 'Casinos', scope: {} })).then([{ type: 'AuthRuleRenamed', data: { authRuleToken, name: 'Casinos' } }]);
      spec.given([created]).when(command('UpdateAuthRule', { name: null, scope: {} })).then([{ type: 'AuthRuleRenamed', data: { authRuleToken, name: null } }]);
    });

    it('changes nothing for the same name', () => spec.given([created]).when(command('UpdateAuthRule', { name: 'No gambling', scope: {} })).then([]));

    it("replaces a program-wide rule's exclusions", () => {
      spec
        .given([created])
        .when(command('UpdateAuthRule', { scope: { excludedCardTokens: [otherCard] } }))
        .then([{ type: 'AuthRuleScopeChanged', data: { authRuleToken, scope: { level: 'PROGRAM', excludedCardTokens: [otherCard], excludedAccountTokens: [] } } }]);
    });

    it('moves a program-wide rule onto cards', () => {
      spec
        .given([created])
        .when(command('UpdateAuthRule', { scope: { cardTokens: [cardToken] } }))
        .then([{ type: 'AuthRuleScopeChanged', data: { authRuleToken, scope: { level: 'CARD', cardTokens: [cardToken] } } }]);
    });

    it('refuses exclusions on a card-level rule', () => {
      const cardRule: AuthRuleEvent = { ...created, data: { ...created.data, scope: { level: 'CARD', cardTokens: [cardToken] } } } as AuthRuleEvent;
      spec.given([cardRule]).when(command('UpdateAuthRule', { scope: { excludedCardTokens: [otherCard] } })).thenThrows(AuthRuleScopeInvalid);
    });
  });

  describe('delete', () => {
    it('deletes', () => spec.given([created]).when(command('DeleteAuthRule', {})).then([deleted]));

    it.each(['DraftAuthRule', 'PromoteAuthRule', 'UpdateAuthRule', 'DeleteAuthRule'] as const)('answers %s on a deleted rule as not found', (type) => {
      spec.given([created, deleted]).when(command(type, { parameters: blockCasinos, scope: {} } as never)).thenThrows(AuthRuleNotFound);
    });
  });

  it.each(['DraftAuthRule', 'PromoteAuthRule', 'UpdateAuthRule', 'DeleteAuthRule'] as const)("answers %s on another program's rule as not found", (type) => {
    const foreign = { ...command(type, { parameters: blockCasinos, scope: {} } as never), programToken: otherProgramToken };
    spec.given([created]).when(foreign).thenThrows(AuthRuleNotFound);
  });

  it('shows its versions newest first: the draft SHADOW, the current ACTIVE, the older INACTIVE', () => {
    const rule = foldAuthRule([created, promoted(1), drafted(2), promoted(2), drafted(3)]);
    if (rule.status !== 'existing') throw new Error('expected a rule');
    expect(versionStates(rule).map(({ version, state }) => [version.version, state])).toEqual([
      [3, 'SHADOW'],
      [2, 'ACTIVE'],
      [1, 'INACTIVE'],
    ]);
  });

  it('shows every version INACTIVE on an INACTIVE rule', () => {
    const rule = foldAuthRule([created, promoted(1), drafted(2), deactivated]);
    if (rule.status !== 'existing') throw new Error('expected a rule');
    expect(versionStates(rule).map(({ state }) => state)).toEqual(['INACTIVE', 'INACTIVE']);
  });
});
