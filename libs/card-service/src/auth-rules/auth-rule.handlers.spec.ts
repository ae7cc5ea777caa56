import { CreateAuthRuleCommand, DeleteAuthRuleCommand, DraftAuthRuleCommand, PromoteAuthRuleCommand, UpdateAuthRuleCommand } from '@ledger/contracts';
import { AuthRuleNotFound, AuthRuleParametersInvalid, authRuleStreamId, programAuthRulesStreamId, CardNotFound, cardStreamId, ProgramNotFound, programStreamId, type AuthRuleEvent } from '@ledger/domain';
import { cardCreated, commandOrigin, ledgerHandlerSpecification, programWithFundingSources } from '@ledger/runtime/test';
import { CreateAuthRuleHandler, DeleteAuthRuleHandler, DraftAuthRuleHandler, PromoteAuthRuleHandler, UpdateAuthRuleHandler } from './auth-rule.handlers';

const PROGRAM = 'prog_acme';
const OTHER_PROGRAM = 'prog_other';
const origin = commandOrigin(PROGRAM);
const created = '2025-03-14T09:26:53.589Z';
const program = programWithFundingSources({ programToken: PROGRAM, created });
const CARD = 'card_ours';
const FOREIGN_CARD = 'card_theirs';
const cards = {
  [cardStreamId(CARD)]: [cardCreated({ cardToken: CARD, programToken: PROGRAM, created })],
  [cardStreamId(FOREIGN_CARD)]: [cardCreated({ cardToken: FOREIGN_CARD, programToken: OTHER_PROGRAM, created })],
};
const blockGambling = { action: 'DECLINE', conditions: [{ attribute: 'MCC', operation: 'IS_ONE_OF', value: ['7995'] }] };

describe('CreateAuthRuleHandler', () => {
  const create = ledgerHandlerSpecification({ handler: (env) => new CreateAuthRuleHandler(env) });
  const command = (scope: object, parameters: unknown = blockGambling) =>
    new CreateAuthRuleCommand(origin, { name: 'No gambling', type: 'CONDITIONAL_ACTION', parameters, scope });

  it("records the rule on its own stream, its parameters as draft version 1, at the program's time, and lists it on the program's rules", async () => {
    const { result } = await create
      .given({ [programStreamId(PROGRAM)]: program, ...cards })
      .when((handler) => handler.execute(command({ cardTokens: [CARD] })))
      .then({
        [authRuleStreamId(create.id(1))]: [
          {
            type: 'AuthRuleCreated',
            data: { authRuleToken: create.id(1), programToken: PROGRAM, name: 'No gambling', ruleType: 'CONDITIONAL_ACTION', scope: { level: 'CARD', cardTokens: [CARD] }, parameters: blockGambling, created: create.now.toISOString() },
          },
        ],
        [programAuthRulesStreamId(PROGRAM)]: [{ type: 'AuthRuleListed', data: { programToken: PROGRAM, authRuleToken: create.id(1) } }],
      });
    expect(result).toEqual({ token: create.id(1), position: expect.stringMatching(/^\d+\/\d+$/) });
  });

  it("refuses a card of another program, as one that does not exist, whether included or excluded", async () => {
    await create.given({ [programStreamId(PROGRAM)]: program, ...cards }).when((handler) => handler.execute(command({ cardTokens: [CARD, FOREIGN_CARD] }))).thenThrows(CardNotFound, { cardToken: FOREIGN_CARD });
    await create.given({ [programStreamId(PROGRAM)]: program, ...cards }).when((handler) => handler.execute(command({ programLevel: true, excludedCardTokens: ['card_none'] }))).thenThrows(CardNotFound, { cardToken: 'card_none' });
  });

  it('refuses parameters the domain refuses, and records nothing', async () => {
    await create.given({ [programStreamId(PROGRAM)]: program }).when((handler) => handler.execute(command({ programLevel: true }, { action: 'APPROVE', conditions: [] }))).thenThrows(AuthRuleParametersInvalid);
  });

  it('refuses a program that does not exist', async () => {
    await create.when((handler) => handler.execute(command({ programLevel: true }))).thenThrows(ProgramNotFound);
  });
});

describe('the commands on an existing rule', () => {
  const RULE = 'rule_1';
  const stream = authRuleStreamId(RULE);
  const at = '2025-03-14T09:26:53.589Z';
  const ruleCreated: AuthRuleEvent = {
    type: 'AuthRuleCreated',
    data: { authRuleToken: RULE, programToken: PROGRAM, name: null, ruleType: 'CONDITIONAL_ACTION', scope: { level: 'PROGRAM', excludedCardTokens: [], excludedAccountTokens: [] }, parameters: blockGambling as never, created: at },
  };
  const listed = { [programAuthRulesStreamId(PROGRAM)]: [{ type: 'AuthRuleListed' as const, data: { programToken: PROGRAM, authRuleToken: RULE } }] };
  const given = { [programStreamId(PROGRAM)]: program, ...cards, [stream]: [ruleCreated], ...listed };

  it('promotes the draft', async () => {
    const promote = ledgerHandlerSpecification({ handler: (env) => new PromoteAuthRuleHandler(env) });
    await promote.given(given).when((handler) => handler.execute(new PromoteAuthRuleCommand(origin, RULE))).then({ [stream]: [{ type: 'AuthRulePromoted', data: { authRuleToken: RULE, version: 1, at: promote.now.toISOString() } }] });
  });

  it('drafts the next version', async () => {
    const draft = ledgerHandlerSpecification({ handler: (env) => new DraftAuthRuleHandler(env) });
    await draft
      .given(given)
      .when((handler) => handler.execute(new DraftAuthRuleCommand(origin, RULE, blockGambling)))
      .then({ [stream]: [{ type: 'AuthRuleDrafted', data: { authRuleToken: RULE, version: 2, parameters: blockGambling as never, at: draft.now.toISOString() } }] });
  });

  it('moves the rule onto a card of the program, and refuses one of another', async () => {
    const update = ledgerHandlerSpecification({ handler: (env) => new UpdateAuthRuleHandler(env) });
    await update
      .given(given)
      .when((handler) => handler.execute(new UpdateAuthRuleCommand(origin, RULE, { state: 'INACTIVE', scope: { cardTokens: [CARD] } })))
      .then({
        [stream]: [
          { type: 'AuthRuleScopeChanged', data: { authRuleToken: RULE, scope: { level: 'CARD', cardTokens: [CARD] } } },
          { type: 'AuthRuleDeactivated', data: { authRuleToken: RULE, at: update.now.toISOString() } },
        ],
      });
    await update.given(given).when((handler) => handler.execute(new UpdateAuthRuleCommand(origin, RULE, { scope: { cardTokens: [FOREIGN_CARD] } }))).thenThrows(CardNotFound);
  });

  it("deletes, off the program's rules, and answers another program's rule as not found", async () => {
    const remove = ledgerHandlerSpecification({ handler: (env) => new DeleteAuthRuleHandler(env) });
    await remove
      .given(given)
      .when((handler) => handler.execute(new DeleteAuthRuleCommand(origin, RULE)))
      .then({
        [stream]: [{ type: 'AuthRuleDeleted', data: { authRuleToken: RULE, at: remove.now.toISOString() } }],
        [programAuthRulesStreamId(PROGRAM)]: [{ type: 'AuthRuleUnlisted', data: { programToken: PROGRAM, authRuleToken: RULE } }],
      });
    const otherProgram = { [programStreamId(OTHER_PROGRAM)]: programWithFundingSources({ programToken: OTHER_PROGRAM, created }), [stream]: [ruleCreated] };
    await remove.given(otherProgram).when((handler) => handler.execute(new DeleteAuthRuleCommand(commandOrigin(OTHER_PROGRAM), RULE))).thenThrows(AuthRuleNotFound);
  });
});
