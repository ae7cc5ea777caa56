import { deciderSpecification } from '@ledger/test-support';
import { foldEvents } from '../core/decider';
import { accountUsageAt, accountVelocityLimits, accountVelocityUsageDecider, type AccountVelocityUsageEvent, type CountApproval } from './account-velocity-usage';
import type { ExistingAuthRule } from './auth-rule';
import type { VelocityLimitParameters } from './auth-rule-parameters';
import { cardToken, now, programToken } from '../../test/fixtures';

const spec = deciderSpecification(accountVelocityUsageDecider, { now });
const authRuleToken = '5a1f0d2e-8c3b-4e6f-9a7d-0b1c2d3e4f50';
const hourly: VelocityLimitParameters = { scope: 'ACCOUNT', period: { type: 'CUSTOM', duration: 3600 }, limit_count: 3, filters: { include_mccs: ['5812'] } };

const count = (overrides: Partial<CountApproval> = {}): CountApproval => ({
  type: 'CountApproval',
  authRuleToken,
  version: 2,
  parameters: hourly,
  transactionToken: 't1',
  cardToken,
  amount: 1200,
  facts: { mcc: '5812', country: 'USA', panEntryMode: 'UNKNOWN' },
  ...overrides,
});
const counted = (transactionToken: string, amount: number, at: Date): AccountVelocityUsageEvent => ({
  type: 'AuthRuleUsageCounted',
  data: { authRuleToken, version: 2, transactionToken, cardToken, amount, at: at.toISOString() },
});
const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000);

describe('account velocity usage', () => {
  it('given an approval the filters keep, then it is counted with its amount and time', () => {
    spec.given([]).when(count()).then([counted('t1', 1200, now)]);
  });

  it('given an approval the filters leave out, then nothing is counted', () => {
    spec.given([]).when(count({ facts: { mcc: '7995', country: 'USA', panEntryMode: 'UNKNOWN' } })).then([]);
  });

  it("given approvals inside and outside the period, then the usage is the period's count and amount", () => {
    const state = foldEvents(accountVelocityUsageDecider, [counted('old', 500, minutesAgo(61)), counted('a', 700, minutesAgo(59)), counted('b', 300, minutesAgo(1))]);
    expect(accountUsageAt(hourly, state, now)).toEqual({ count: 2, amount: 1000 });
  });

  it('given a rule with a current ACCOUNT limit and a draft, then both versions run, each with its own counter', () => {
    const version = (number: number, parameters: VelocityLimitParameters) => ({ version: number, parameters, created: now.toISOString() });
    const cardLimit: VelocityLimitParameters = { ...hourly, scope: 'CARD' };
    const rule = {
      status: 'existing',
      authRuleToken,
      programToken,
      name: null,
      ruleType: 'VELOCITY_LIMIT',
      scope: { level: 'PROGRAM', excludedCardTokens: [], excludedAccountTokens: [] },
      state: 'ACTIVE',
      current: version(1, hourly),
      draft: version(2, { ...hourly, limit_count: 5 }),
      versions: [],
      created: now.toISOString(),
    } as unknown as ExistingAuthRule;
    expect(accountVelocityLimits([rule], { cardToken, accountToken: programToken }).map((limit) => limit.version)).toEqual([1, 2]);
    expect(accountVelocityLimits([{ ...rule, draft: version(2, cardLimit) } as unknown as ExistingAuthRule], { cardToken, accountToken: programToken }).map((limit) => limit.version)).toEqual([1]);
    expect(accountVelocityLimits([{ ...rule, state: 'INACTIVE' } as unknown as ExistingAuthRule], { cardToken, accountToken: programToken })).toEqual([]);
  });
});
