import type { AuthorizationChecks } from '../src/cards/card-authorization';
import type { CardCreated } from '../src/cards/card-state';
import { NO_CARD_ACTIVITY } from '../src/cards/card-activity';
import { cardToken, fundingToken, programToken } from './fixtures';

/**
 * What the card specs (the decider's given/when/then, the property test, the program clock's) build
 * their cards from: the shared program, card and funding source, and checks that let anything pass.
 */

/** An OPEN DIGITAL_WALLET card without a PIN, limited to 1000 cents a TRANSACTION, valid until 11/2029. */
export function cardCreated(overrides: Partial<CardCreated['data']> = {}): CardCreated {
  return {
    type: 'CardCreated',
    data: {
      cardToken,
      programToken,
      cardType: 'DIGITAL_WALLET',
      state: 'OPEN',
      memo: '',
      spendLimit: 1000,
      spendLimitDuration: 'TRANSACTION',
      fundingToken,
      expMonth: '11',
      expYear: '2029',
      lastFour: '1111',
      panHash: 'hash-of-pan',
      panEncrypted: 'v1:cipher',
      pinHash: null,
      created: '2026-01-01T00:00:00.000Z',
      ...overrides,
    },
  };
}

/** Checks of an authorization with nothing to refuse it: an active program, no rules set, ENABLED funding. */
export function passingChecks(overrides: Partial<AuthorizationChecks> = {}): AuthorizationChecks {
  return {
    programState: 'ACTIVE',
    merchantBlocked: false,
    velocity: null,
    globalLimitExceeded: null,
    fundingState: 'ENABLED',
    cvvMatches: null,
    expiryMatches: null,
    presentedPinHash: null,
    streamDecline: null,
    authRules: { rules: [], accountCreated: null, activity: NO_CARD_ACTIVITY },
    ...overrides,
  };
}
