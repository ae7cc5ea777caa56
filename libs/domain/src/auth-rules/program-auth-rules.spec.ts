import { deciderSpecification } from '@ledger/test-support';
import { programAuthRulesDecider, type ProgramAuthRulesEvent } from './program-auth-rules';
import { now, programToken } from '../../test/fixtures';

const spec = deciderSpecification(programAuthRulesDecider, { now });
const listed = (authRuleToken: string): ProgramAuthRulesEvent => ({ type: 'AuthRuleListed', data: { programToken, authRuleToken } });
const unlisted = (authRuleToken: string): ProgramAuthRulesEvent => ({ type: 'AuthRuleUnlisted', data: { programToken, authRuleToken } });

describe("a program's auth rules", () => {
  it('lists a new rule', () => spec.given([listed('a')]).when({ type: 'ListAuthRule', programToken, authRuleToken: 'b' }).then([listed('b')]));
  it('lists a rule once', () => spec.given([listed('a')]).when({ type: 'ListAuthRule', programToken, authRuleToken: 'a' }).then([]));
  it('unlists a listed rule', () => spec.given([listed('a')]).when({ type: 'UnlistAuthRule', programToken, authRuleToken: 'a' }).then([unlisted('a')]));
  it('unlists nothing that is not listed', () => spec.given([listed('a'), unlisted('a')]).when({ type: 'UnlistAuthRule', programToken, authRuleToken: 'a' }).then([]));

  it('keeps the rules in the order they were created', () => {
    const state = [listed('c'), listed('a'), listed('b'), unlisted('a')].reduce(programAuthRulesDecider.evolve, programAuthRulesDecider.initialState());
    expect(state.authRuleTokens).toEqual(['c', 'b']);
  });
});
