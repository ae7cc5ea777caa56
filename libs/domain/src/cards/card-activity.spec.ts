import { APPROVALS_KEPT_MS, MERCHANTS_KEPT } from './card-activity';
import { ago, approvedAt, cardWith, DAY, declinedAt, HOUR } from '../../test/auth-rule-fixtures';
import { cardToken, coffeeShop } from '../../test/fixtures';

/** The card's history the Auth Rules read, folded from the card's own events, and what it keeps. */
describe('card activity', () => {
  it('starts empty', () => {
    expect(cardWith([]).activity).toEqual({ approvals: [], declines: [], consecutiveDeclines: [], lastApprovedAt: null, countries: [], mccs: [], merchants: [] });
  });

  it('keeps an approval with what a velocity filter reads', () => {
    const { activity } = cardWith([approvedAt(ago(HOUR), coffeeShop, 250, 'tx-1')]);
    expect(activity.approvals).toEqual([{ transactionToken: 'tx-1', at: Date.parse(ago(HOUR)), amount: 250, mcc: '5812', country: 'USA', panEntryMode: 'UNKNOWN', voided: false }]);
    expect(activity).toMatchObject({ lastApprovedAt: Date.parse(ago(HOUR)), countries: ['USA'], mccs: ['5812'], merchants: ['acceptor:174030075991'] });
  });

  it('forgets approvals older than the longest velocity period', () => {
    const { activity } = cardWith([approvedAt(ago(APPROVALS_KEPT_MS + DAY), coffeeShop, 1, 'old'), approvedAt(ago(DAY), coffeeShop, 1, 'new')]);
    expect(activity.approvals.map((approval) => approval.transactionToken)).toEqual(['new']);
    expect(activity.mccs).toEqual(['5812']);
  });

  it('forgets declines older than a day, and consecutive ones at the next approval', () => {
    const { activity } = cardWith([declinedAt(ago(3 * DAY)), declinedAt(ago(2 * HOUR)), approvedAt(ago(HOUR)), declinedAt(ago(30 * 60_000))]);
    expect(activity.declines).toEqual([Date.parse(ago(2 * HOUR)), Date.parse(ago(30 * 60_000))]);
    expect(activity.consecutiveDeclines).toEqual([Date.parse(ago(30 * 60_000))]);
  });

  it(`keeps the ${MERCHANTS_KEPT} merchants most recently approved`, () => {
    const merchants = Array.from({ length: MERCHANTS_KEPT + 1 }, (_, index) => approvedAt(ago(DAY - index * 1000), { ...coffeeShop, acceptorId: `m-${index}` }));
    const again = approvedAt(ago(1000), { ...coffeeShop, acceptorId: 'm-1' });
    const { activity } = cardWith([...merchants, again]);
    expect(activity.merchants).toHaveLength(MERCHANTS_KEPT);
    expect(activity.merchants).not.toContain('acceptor:m-0');
    expect(activity.merchants.at(-1)).toBe('acceptor:m-1');
  });

  it('moves an approval by its adjustments, and marks it voided when voided in full', () => {
    const adjust = (amount: number, cause: 'VOID' | 'CLEARING', transactionVersion: number) => ({
      type: 'CardSpendAdjusted' as const,
      data: { cardToken, transactionToken: 'tx-1', transactionVersion, cause, amount },
    });
    const approval = approvedAt(ago(HOUR), coffeeShop, 900, 'tx-1');
    expect(cardWith([approval, adjust(400, 'CLEARING', 2)]).activity.approvals[0]).toMatchObject({ amount: 400, voided: false });
    expect(cardWith([approval, adjust(0, 'VOID', 2)]).activity.approvals[0]).toMatchObject({ amount: 0, voided: true });
  });

  it('leaves the activity of a card no authorization reached', () => {
    const card = cardWith([{ type: 'CardPaused', data: { cardToken } }]);
    expect(card.activity).toBe(cardWith([]).activity);
  });
});
