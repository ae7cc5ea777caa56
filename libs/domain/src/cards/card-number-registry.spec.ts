import { deciderSpecification } from '@ledger/test-support';
import { CardNumberAssigned, cardNumberRegistryDecider, CardNumberTaken } from './card-number-registry';

const spec = deciderSpecification(cardNumberRegistryDecider, { now: new Date('2026-11-23T00:00:00.000Z') });
const assign = (cardToken: string) => ({ type: 'AssignCardNumber' as const, panHash: 'hash-1', cardToken, programToken: 'program-1' });
const assigned = (cardToken: string): CardNumberAssigned => ({ type: 'CardNumberAssigned', data: { panHash: 'hash-1', cardToken, programToken: 'program-1' } });

describe('the card-number registry', () => {
  it('assigns a free number to the card', () => {
    spec.given([]).when(assign('card-1')).then([assigned('card-1')]);
  });

  it('refuses a number already assigned, to another card or the same one', () => {
    spec.given([assigned('card-1')]).when(assign('card-2')).thenThrows(CardNumberTaken);
    spec.given([assigned('card-1')]).when(assign('card-1')).thenThrows(CardNumberTaken);
  });
});
