import type { CardCreated } from '@ledger/domain';

type Card = CardCreated['data'];

/**
 * An OPEN UNLOCKED card on `fund_default`, expiring 03/2028, with no spend limit and no PIN; any field
 * may be given otherwise. Its number's secrets are stand-ins: a spec that looks the card up by its
 * number, or decrypts it, gives real ones (`...vault.protect(pan)`).
 */
export function cardCreated({ cardToken, programToken, created, ...overrides }: Pick<Card, 'cardToken' | 'programToken' | 'created'> & Partial<Card>): CardCreated {
  return {
    type: 'CardCreated',
    data: {
      cardToken,
      programToken,
      cardType: 'UNLOCKED',
      state: 'OPEN',
      memo: '',
      spendLimit: 0,
      spendLimitDuration: 'TRANSACTION',
      fundingToken: 'fund_default',
      expMonth: '03',
      expYear: '2028',
      lastFour: '0007',
      panHash: 'hash-of-the-pan',
      panEncrypted: 'v1.sealed-pan',
      pinHash: null,
      created,
      ...overrides,
    },
  };
}
