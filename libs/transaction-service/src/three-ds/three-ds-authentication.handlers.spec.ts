import { CardVault } from '@ledger/card-vault';
import { EnterThreeDSOtpCommand, RespondToThreeDSChallengeCommand, SimulateThreeDSAuthenticationCommand } from '@ledger/contracts';
import {
  cardNumberStreamId,
  cardStreamId,
  InvalidInput,
  programStreamId,
  SANDBOX_OTP,
  ThreeDSAuthenticationNotFound,
  ThreeDSChallengeNotPending,
  threeDSAuthenticationStreamId,
  type CardExpiryCheck,
  type ThreeDSAuthenticationCreated,
  type ThreeDSAuthenticationEvent,
  type ThreeDSMerchant,
} from '@ledger/domain';
import { cardCreated, commandOrigin, ledgerHandlerSpecification, programCreated } from '@ledger/runtime/test';
import { CardLocator, NoCardWithThisNumber } from '../card-locator';
import { EnterThreeDSOtpHandler, RespondToThreeDSChallengeHandler, SimulateThreeDSAuthenticationHandler } from './three-ds-authentication.handlers';

const vault = new CardVault(Buffer.alloc(32, 7));
const PROGRAM = 'prog_acme';
const OTHER_PROGRAM = 'prog_other';
const CARD = 'card_1';
const PAN = '4242424242424242';
const origin = commandOrigin(PROGRAM);
const NOW = '2025-03-14T09:26:53.589Z';
const CREATED_AT = '2025-03-14T09:20:00.000Z';
const shop: ThreeDSMerchant = { id: 'OODKZAPJVN4YS7O', country: 'USA', mcc: '5812', name: 'COFFEE SHOP' };
const challengingShop: ThreeDSMerchant = { ...shop, name: 'Challenge Coffee' };

describe('SimulateThreeDSAuthenticationHandler', () => {
  const secrets = vault.protect(PAN);
  /** The card is found by its number through the registry stream, as CreateCardHandler leaves it. */
  const given = {
    [programStreamId(PROGRAM)]: [programCreated({ programToken: PROGRAM, created: CREATED_AT })],
    [cardNumberStreamId(secrets.panHash)]: [{ type: 'CardNumberAssigned', data: { panHash: secrets.panHash, cardToken: CARD, programToken: PROGRAM } }],
    [cardStreamId(CARD)]: [cardCreated({ cardToken: CARD, programToken: PROGRAM, ...secrets, created: CREATED_AT })],
  };
  const authentications = ledgerHandlerSpecification({ handler: (env) => new SimulateThreeDSAuthenticationHandler(env, new CardLocator(env, vault)), now: new Date(NOW) });
  const simulate = ({ merchant = shop, cardExpiryCheck = 'MATCH' as CardExpiryCheck, pan = PAN, programToken = PROGRAM } = {}) =>
    new SimulateThreeDSAuthenticationCommand({ ...origin, programToken }, pan, merchant, { amount: 1250, currency: 'EUR' }, cardExpiryCheck);
  /** The authentication the simulation opens, under the first id the handler draws. */
  const created = (token: string, merchant: ThreeDSMerchant, cardExpiryCheck: CardExpiryCheck, decided: Pick<ThreeDSAuthenticationCreated['data'], 'result' | 'challenge'>) => ({
    type: 'ThreeDSAuthenticationCreated',
    data: { threeDSAuthenticationToken: token, cardToken: CARD, programToken: PROGRAM, merchant, amount: 1250, currency: 'EUR', cardExpiryCheck, decisionMadeBy: 'LITHIC_DEFAULT', ...decided, at: NOW },
  });

  it('finds the card by its number and opens the authentication on a stream of its own, under a new token: frictionless for an ordinary merchant', async () => {
    const token = authentications.id(1);
    const { result, writes } = await authentications
      .given(given)
      .when((handler) => handler.execute(simulate()))
      .then({ [threeDSAuthenticationStreamId(token)]: [created(token, shop, 'MATCH', { result: 'SUCCESS', challenge: null })] });

    expect(writes).toEqual([[threeDSAuthenticationStreamId(token)]]);
    expect(result).toEqual({ token, position: expect.stringMatching(/^\d+\/\d+$/) });
  });

  it('asks for an SMS OTP challenge when the merchant is named with the CHALLENGE keyword', async () => {
    const token = authentications.id(1);
    await authentications
      .given(given)
      .when((handler) => handler.execute(simulate({ merchant: challengingShop })))
      .then({ [threeDSAuthenticationStreamId(token)]: [created(token, challengingShop, 'MATCH', { result: 'PENDING_CHALLENGE', challenge: { method: 'SMS_OTP', status: 'PENDING', orchestratedBy: 'LITHIC' } })] });
  });

  it("declines a cardholder who typed another expiry than the card's, without a challenge even where one would be asked", async () => {
    const token = authentications.id(1);
    await authentications
      .given(given)
      .when((handler) => handler.execute(simulate({ merchant: challengingShop, cardExpiryCheck: 'MISMATCH' })))
      .then({ [threeDSAuthenticationStreamId(token)]: [created(token, challengingShop, 'MISMATCH', { result: 'DECLINE', challenge: null })] });
  });

  it('opens another authentication for each simulation of the same card', async () => {
    // Each simulation draws its token, then its event's id: the second one's token is the third id.
    const [first, second] = [authentications.id(1), authentications.id(3)];
    const { result } = await authentications
      .given(given)
      .when(async (handler) => [await handler.execute(simulate()), await handler.execute(simulate({ merchant: challengingShop }))])
      .then({
        [threeDSAuthenticationStreamId(first)]: [created(first, shop, 'MATCH', { result: 'SUCCESS', challenge: null })],
        [threeDSAuthenticationStreamId(second)]: [created(second, challengingShop, 'MATCH', { result: 'PENDING_CHALLENGE', challenge: { method: 'SMS_OTP', status: 'PENDING', orchestratedBy: 'LITHIC' } })],
      });

    expect(result.map(({ token }) => token)).toEqual([first, second]);
  });

  it("refuses a number no card of the program has, another program's card alike, and a number whose check digit is wrong", async () => {
    await authentications.given(given).when((handler) => handler.execute(simulate({ pan: '4000056655665556' }))).thenThrows(NoCardWithThisNumber, { field: 'pan' });
    await authentications.given(given).when((handler) => handler.execute(simulate({ programToken: OTHER_PROGRAM }))).thenThrows(NoCardWithThisNumber);
    await authentications.given(given).when((handler) => handler.execute(simulate({ pan: '4242424242424241' }))).thenThrows(InvalidInput, { field: 'pan' });
  });
});

const AUTHENTICATION = '3d5a1c2e-7b4f-4e8a-9c0d-1f2e3a4b5c6d';
const STREAM = threeDSAuthenticationStreamId(AUTHENTICATION);
const authenticationData = { threeDSAuthenticationToken: AUTHENTICATION, cardToken: CARD, programToken: PROGRAM, merchant: challengingShop, amount: 1250, currency: 'EUR', cardExpiryCheck: 'MATCH', decisionMadeBy: 'LITHIC_DEFAULT' } as const;
const pendingChallenge: ThreeDSAuthenticationEvent = {
  type: 'ThreeDSAuthenticationCreated',
  data: { ...authenticationData, result: 'PENDING_CHALLENGE', challenge: { method: 'SMS_OTP', status: 'PENDING', orchestratedBy: 'LITHIC' }, at: CREATED_AT },
};
const frictionless: ThreeDSAuthenticationEvent = { type: 'ThreeDSAuthenticationCreated', data: { ...authenticationData, merchant: shop, result: 'SUCCESS', challenge: null, at: CREATED_AT } };
const declined: ThreeDSAuthenticationEvent = { type: 'ThreeDSAuthenticationCreated', data: { ...authenticationData, cardExpiryCheck: 'MISMATCH', result: 'DECLINE', challenge: null, at: CREATED_AT } };
const answered: ThreeDSAuthenticationEvent = {
  type: 'ThreeDSChallengeCompleted',
  data: { ...authenticationData, result: 'SUCCESS', challenge: { method: 'SMS_OTP', status: 'SUCCESS', orchestratedBy: 'LITHIC' }, created: CREATED_AT, at: CREATED_AT },
};
/** The challenge answered now: the whole authentication again, with when it was created. */
const completed = (decided: Pick<Extract<ThreeDSAuthenticationEvent, { type: 'ThreeDSChallengeCompleted' }>['data'], 'result' | 'decisionMadeBy' | 'challenge'>) => ({
  [STREAM]: [{ type: 'ThreeDSChallengeCompleted', data: { ...authenticationData, ...decided, created: CREATED_AT, at: NOW } }],
});
const accepted = { token: AUTHENTICATION, position: expect.stringMatching(/^\d+\/\d+$/) };

describe('EnterThreeDSOtpHandler', () => {
  const otps = ledgerHandlerSpecification({ handler: (env) => new EnterThreeDSOtpHandler(env), now: new Date(NOW) });
  const enter = (otp: string, { token = AUTHENTICATION, programToken = PROGRAM } = {}) => new EnterThreeDSOtpCommand({ ...origin, programToken }, token, otp);

  it("authenticates with the sandbox's OTP", async () => {
    const { result } = await otps
      .given({ [STREAM]: [pendingChallenge] })
      .when((handler) => handler.execute(enter(SANDBOX_OTP)))
      .then(completed({ result: 'SUCCESS', decisionMadeBy: 'LITHIC_DEFAULT', challenge: { method: 'SMS_OTP', status: 'SUCCESS', orchestratedBy: 'LITHIC' } }));

    expect(result).toEqual(accepted);
  });

  it('declines any other OTP: the one attempt is spent', async () => {
    await otps
      .given({ [STREAM]: [pendingChallenge] })
      .when((handler) => handler.execute(enter('654321')))
      .then(completed({ result: 'DECLINE', decisionMadeBy: 'LITHIC_DEFAULT', challenge: { method: 'SMS_OTP', status: 'ATTEMPTS_EXCEEDED', orchestratedBy: 'LITHIC' } }));
  });

  it("refuses an unknown authentication, and another program's alike", async () => {
    await otps.given({ [STREAM]: [pendingChallenge] }).when((handler) => handler.execute(enter(SANDBOX_OTP, { token: 'tds_unknown' }))).thenThrows(ThreeDSAuthenticationNotFound, { threeDSAuthenticationToken: 'tds_unknown' });
    await otps.given({ [STREAM]: [pendingChallenge] }).when((handler) => handler.execute(enter(SANDBOX_OTP, { programToken: OTHER_PROGRAM }))).thenThrows(ThreeDSAuthenticationNotFound, { threeDSAuthenticationToken: AUTHENTICATION });
  });

  it('refuses an OTP where no challenge waits: frictionless, declined, or answered already', async () => {
    await otps.given({ [STREAM]: [frictionless] }).when((handler) => handler.execute(enter(SANDBOX_OTP))).thenThrows(ThreeDSChallengeNotPending, { message: expect.stringContaining('authentication_result SUCCESS') });
    await otps.given({ [STREAM]: [declined] }).when((handler) => handler.execute(enter(SANDBOX_OTP))).thenThrows(ThreeDSChallengeNotPending, { message: expect.stringContaining('authentication_result DECLINE') });
    await otps.given({ [STREAM]: [pendingChallenge, answered] }).when((handler) => handler.execute(enter(SANDBOX_OTP))).thenThrows(ThreeDSChallengeNotPending);
  });
});

describe('RespondToThreeDSChallengeHandler', () => {
  const responses = ledgerHandlerSpecification({ handler: (env) => new RespondToThreeDSChallengeHandler(env), now: new Date(NOW) });
  const respond = (response: 'APPROVE' | 'DECLINE_BY_CUSTOMER', { token = AUTHENTICATION, programToken = PROGRAM } = {}) => new RespondToThreeDSChallengeCommand({ ...origin, programToken }, token, response);

  it("authenticates when the program approves: the challenge was the program's, out of band", async () => {
    const { result } = await responses
      .given({ [STREAM]: [pendingChallenge] })
      .when((handler) => handler.execute(respond('APPROVE')))
      .then(completed({ result: 'SUCCESS', decisionMadeBy: 'CUSTOMER_ENDPOINT', challenge: { method: 'OUT_OF_BAND', status: 'SUCCESS', orchestratedBy: 'CUSTOMER' } }));

    expect(result).toEqual(accepted);
  });

  it('declines when the cardholder declined the challenge', async () => {
    await responses
      .given({ [STREAM]: [pendingChallenge] })
      .when((handler) => handler.execute(respond('DECLINE_BY_CUSTOMER')))
      .then(completed({ result: 'DECLINE', decisionMadeBy: 'CUSTOMER_ENDPOINT', challenge: { method: 'OUT_OF_BAND', status: 'CANCELED_OOB', orchestratedBy: 'CUSTOMER' } }));
  });

  it("refuses an unknown authentication, and another program's alike", async () => {
    await responses.given({ [STREAM]: [pendingChallenge] }).when((handler) => handler.execute(respond('APPROVE', { token: 'tds_unknown' }))).thenThrows(ThreeDSAuthenticationNotFound, { threeDSAuthenticationToken: 'tds_unknown' });
    await responses.given({ [STREAM]: [pendingChallenge] }).when((handler) => handler.execute(respond('APPROVE', { programToken: OTHER_PROGRAM }))).thenThrows(ThreeDSAuthenticationNotFound, { threeDSAuthenticationToken: AUTHENTICATION });
  });

  it('refuses a response where no challenge waits: frictionless, declined, or answered already', async () => {
    await responses.given({ [STREAM]: [frictionless] }).when((handler) => handler.execute(respond('APPROVE'))).thenThrows(ThreeDSChallengeNotPending, { message: expect.stringContaining('authentication_result SUCCESS') });
    await responses.given({ [STREAM]: [declined] }).when((handler) => handler.execute(respond('APPROVE'))).thenThrows(ThreeDSChallengeNotPending, { message: expect.stringContaining('authentication_result DECLINE') });
    await responses.given({ [STREAM]: [pendingChallenge, answered] }).when((handler) => handler.execute(respond('DECLINE_BY_CUSTOMER'))).thenThrows(ThreeDSChallengeNotPending);
  });
});
