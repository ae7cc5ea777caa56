import Lithic from 'lithic';
import type { TransactionSimulateAuthorizationParams } from 'lithic/resources/transactions/transactions';
import { ledgerForTests } from './test-ledger';

/**
 * Each group of conditional attributes exercised through the simulate endpoint with the official SDK:
 * the merchant's fields (Lithic's own simulate fields), the point of sale's (our extension fields, as
 * Lithic's simulate has none), the PIN, and the account's age (the program's creation). Each rule is
 * on a card of its own and promoted; the effect is the following authorization's answer.
 */

/** Lithic's simulate params plus our extension fields (docs/decisions.md, Auth rules). */
type Simulated = TransactionSimulateAuthorizationParams & { pan_entry_mode?: string; wallet_type?: string; cash_amount?: number };

describe('the lithic SDK: auth rule attributes through simulate', () => {
  const t = ledgerForTests();
  let client: Lithic;
  beforeAll(() => {
    client = new Lithic({ apiKey: t.apiKey, baseURL: t.baseUrl, maxRetries: 0 });
  });

  const statusOf = (answer: Promise<unknown>) =>
    answer.then(
      () => 200,
      (error: unknown) => (error as { status: number }).status,
    );
  /** A card with one promoted rule declining when every condition holds; `authorize` sends one authorization on it. */
  const cardDeclining = async (conditions: unknown[], card: Parameters<Lithic['cards']['create']>[0] = { type: 'VIRTUAL' }) => {
    const created = await client.cards.create(card);
    const rule = await client.authRules.v2.create({ type: 'CONDITIONAL_ACTION', card_tokens: [created.token], parameters: { action: 'DECLINE', conditions } as never });
    await client.authRules.v2.promote(rule.token);
    return (params: Partial<Simulated> = {}) => statusOf(client.transactions.simulateAuthorization({ amount: 5000, descriptor: 'SHOP', pan: created.pan!, ...params } as TransactionSimulateAuthorizationParams));
  };

  it("the merchant's attributes: MCC, COUNTRY, CURRENCY, MERCHANT_ID, DESCRIPTOR and SERVICE_LOCATION_STATE from Lithic's simulate fields", async () => {
    const cases: [unknown, Partial<Simulated>, Partial<Simulated>][] = [
      [{ attribute: 'MCC', operation: 'IS_ONE_OF', value: ['5993'] }, { mcc: '5993' }, { mcc: '5812' }],
      [{ attribute: 'COUNTRY', operation: 'IS_ONE_OF', value: ['FRA'] }, { merchant_acceptor_country: 'FRA' }, { merchant_acceptor_country: 'USA' }],
      [{ attribute: 'CURRENCY', operation: 'IS_ONE_OF', value: ['EUR'] }, { merchant_currency: 'EUR', merchant_amount: 4600 }, { merchant_currency: 'USD' }],
      [{ attribute: 'MERCHANT_ID', operation: 'IS_EQUAL_TO', value: '999888777' }, { merchant_acceptor_id: '999888777' }, { merchant_acceptor_id: '111222333' }],
      [{ attribute: 'DESCRIPTOR', operation: 'MATCHES', value: '^CASINO' }, { descriptor: 'CASINO ROYALE' }, { descriptor: 'COFFEE' }],
      [{ attribute: 'SERVICE_LOCATION_STATE', operation: 'IS_ONE_OF', value: ['NV'] }, { merchant_acceptor_state: 'NV' }, { merchant_acceptor_state: 'NY' }],
    ];
    for (const [condition, matching, other] of cases) {
      const authorize = await cardDeclining([condition]);
      expect([condition, await authorize(matching), await authorize(other)]).toEqual([condition, 422, 200]);
    }
  });

  it("the point of sale's attributes: PAN_ENTRY_MODE, WALLET_TYPE and CASH_AMOUNT from the extension fields", async () => {
    const cases: [unknown, Partial<Simulated>, Partial<Simulated>][] = [
      [{ attribute: 'PAN_ENTRY_MODE', operation: 'IS_ONE_OF', value: ['KEY_ENTERED', 'MANUAL'] }, { pan_entry_mode: 'KEY_ENTERED' }, { pan_entry_mode: 'ICC' }],
      [{ attribute: 'PAN_ENTRY_MODE', operation: 'IS_ONE_OF', value: ['UNKNOWN'] }, {}, { pan_entry_mode: 'CONTACTLESS' }],
      [{ attribute: 'WALLET_TYPE', operation: 'IS_ONE_OF', value: ['APPLE_PAY'] }, { wallet_type: 'APPLE_PAY' }, { wallet_type: 'GOOGLE_PAY' }],
      [{ attribute: 'CASH_AMOUNT', operation: 'IS_GREATER_THAN', value: 2000 }, { cash_amount: 2500 }, { cash_amount: 2000 }],
    ];
    for (const [condition, matching, other] of cases) {
      const authorize = await cardDeclining([condition]);
      expect([condition, await authorize(matching), await authorize(other)]).toEqual([condition, 422, 200]);
    }
    // Cash is part of the amount; a value outside Lithic's list is refused by name.
    const authorize = await cardDeclining([{ attribute: 'CASH_AMOUNT', operation: 'IS_GREATER_THAN', value: 0 }]);
    expect(await authorize({ cash_amount: 5001 })).toBe(400);
    expect(await authorize({ pan_entry_mode: 'TELEPATHY' })).toBe(400);
  });

  it('PIN_ENTERED: a presented PIN (the card has one) is entered, none is not', async () => {
    const authorize = await cardDeclining([{ attribute: 'PIN_ENTERED', operation: 'IS_EQUAL_TO', value: 'FALSE' }], { type: 'VIRTUAL', pin: '2468' });
    expect(await authorize({})).toBe(422);
    expect(await authorize({ pin: '2468' })).toBe(200);
  });

  it("ACCOUNT_AGE: the program's creation is the account's", async () => {
    // The test program was created moments ago: younger than a day, older than no time at all.
    const young = await cardDeclining([{ attribute: 'ACCOUNT_AGE', operation: 'IS_LESS_THAN', value: 86_400 }]);
    expect(await young()).toBe(422);
    const old = await cardDeclining([{ attribute: 'ACCOUNT_AGE', operation: 'IS_GREATER_THAN', value: 86_400 }]);
    expect(await old()).toBe(200);
  });
});
