import type { CardEvent } from '../cards/card-state';
import type { RecordAuthorization } from './transaction';

/**
 * The transaction a card's authorization decision opens, with exactly the facts the card recorded,
 * decided with it and written in the same atomic append (decideAuthorizationAndTransaction).
 */
export function transactionOpenedBy(event: CardEvent): RecordAuthorization | null {
  switch (event.type) {
    case 'CardAuthorizationApproved':
      return { type: 'RecordAuthorization', facts: event.data, result: 'APPROVED' };
    case 'CardAuthorizationDeclined': {
      const { reason, ...facts } = event.data;
      return { type: 'RecordAuthorization', facts, result: reason };
    }
    default:
      return null;
  }
}
