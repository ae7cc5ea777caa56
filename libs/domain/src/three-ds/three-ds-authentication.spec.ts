import { now, otherProgramToken, programToken } from '../../test/fixtures';
import { cardholderAuthenticationFor } from './cardholder-authentication';
import {
  threeDSAuthenticationAfter,
  threeDSAuthenticationDecider,
  threeDSAuthenticationStreamId,
  type SimulateThreeDSAuthentication,
  type ThreeDSAuthentication,
  type ThreeDSAuthenticationCommand,
  type ThreeDSAuthenticationEvent,
} from './three-ds-authentication';
import { ThreeDSAuthenticationNotFound, ThreeDSChallengeNotPending } from './three-ds-errors';

const token = '3d5a1c2e-7b4f-4e8a-9c0d-1f2e3a4b5c6d';
const cardToken = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d';

function state(events: ThreeDSAuthenticationEvent[]): ThreeDSAuthentication {
  return events.reduce(threeDSAuthenticationDecider.evolve, threeDSAuthenticationDecider.initialState());
}

function given(events: ThreeDSAuthenticationEvent[]) {
  return { when: (command: ThreeDSAuthenticationCommand) => threeDSAuthenticationDecider.decide(command, state(events), { now }) };
}

const simulate = (overrides: Partial<SimulateThreeDSAuthentication> = {}): SimulateThreeDSAuthentication => ({
  type: 'SimulateThreeDSAuthentication',
  threeDSAuthenticationToken: token,
  cardToken,
  programToken,
  merchant: { id: 'OODKZAPJVN4YS7O', country: 'USA', mcc: '5812', name: 'COFFEE SHOP' },
  amount: 1_250,
  currency: 'USD',
  cardExpiryCheck: 'MATCH',
  ...overrides,
});
const challenging = simulate({ merchant: { id: 'OODKZAPJVN4YS7O', country: 'USA', mcc: '5812', name: 'challenge coffee' } });
const { type: _type, ...simulated } = challenging;
const otp = (value: string): ThreeDSAuthenticationCommand => ({ type: 'EnterThreeDSOtp', programToken, threeDSAuthenticationToken: token, otp: value });

describe('3DS authentication', () => {
  it('lives on a stream of its own', () => {
    expect(threeDSAuthenticationStreamId(token)).toBe(`three-ds-authentication-${token}`);
  });

  it('given nothing, when simulated for an ordinary merchant, then it succeeds without a challenge', () => {
    expect(given([]).when(simulate())).toEqual([
      {
        type: 'ThreeDSAuthenticationCreated',
        data: { threeDSAuthenticationToken: token, cardToken, programToken, merchant: simulate().merchant, amount: 1_250, currency: 'USD', cardExpiryCheck: 'MATCH', result: 'SUCCESS', decisionMadeBy: 'LITHIC_DEFAULT', challenge: null, at: now.toISOString() },
      },
    ]);
  });

  it('given nothing, when the merchant name carries CHALLENGE (any case), then an SMS OTP challenge is pending', () => {
    const [created] = given([]).when(challenging);
    expect(created.data).toMatchObject({ result: 'PENDING_CHALLENGE', challenge: { method: 'SMS_OTP', status: 'PENDING', orchestratedBy: 'LITHIC' } });
  });

  it('given nothing, when the expiry the cardholder typed mismatches, then it is declined, challenge or not', () => {
    const [created] = given([]).when({ ...challenging, cardExpiryCheck: 'MISMATCH' });
    expect(created.data).toMatchObject({ result: 'DECLINE', challenge: null });
  });

  it('given an authentication, when simulated again under its token, then nothing is recorded', () => {
    expect(given(given([]).when(simulate())).when(simulate())).toEqual([]);
  });

  it('given a pending challenge, when the sandbox OTP is entered, then it succeeds', () => {
    const [completed] = given(given([]).when(challenging)).when(otp('123456'));
    expect(completed).toEqual({
      type: 'ThreeDSChallengeCompleted',
      data: {
        ...simulated,
        result: 'SUCCESS',
        decisionMadeBy: 'LITHIC_DEFAULT',
        challenge: { method: 'SMS_OTP', status: 'SUCCESS', orchestratedBy: 'LITHIC' },
        created: now.toISOString(),
        at: now.toISOString(),
      },
    });
  });

  it('carries the whole authentication in each event, so that one event is what its webhook shows', () => {
    const created = given([]).when(challenging);
    const completed = given(created).when(otp('123456'));
    expect(threeDSAuthenticationAfter(completed[0])).toEqual(state([...created, ...completed]));
    expect(threeDSAuthenticationAfter(created[0])).toEqual(state(created));
  });

  it('given a pending challenge, when another OTP is entered, then the single attempt is spent and it is declined', () => {
    const [completed] = given(given([]).when(challenging)).when(otp('000000'));
    expect(completed.data).toMatchObject({ result: 'DECLINE', challenge: { status: 'ATTEMPTS_EXCEEDED' } });
  });

  it('given a completed challenge, when an OTP is entered again, then it is refused', () => {
    const created = given([]).when(challenging);
    const completed = given(created).when(otp('123456'));
    expect(() => given([...created, ...completed]).when(otp('123456'))).toThrow(ThreeDSChallengeNotPending);
  });

  it('given a frictionless authentication, when an OTP is entered, then it is refused: nothing waits for one', () => {
    expect(() => given(given([]).when(simulate())).when(otp('123456'))).toThrow(ThreeDSChallengeNotPending);
  });

  it("given another program's authentication, when an OTP is entered, then it is not found", () => {
    expect(() => given(given([]).when(challenging)).when({ type: 'EnterThreeDSOtp', programToken: otherProgramToken, threeDSAuthenticationToken: token, otp: '123456' })).toThrow(ThreeDSAuthenticationNotFound);
  });

  it('given a pending challenge, when the program answers it out of band, then its answer decides', () => {
    const created = given([]).when(challenging);
    const [approved] = given(created).when({ type: 'RespondToThreeDSChallenge', programToken, threeDSAuthenticationToken: token, response: 'APPROVE' });
    expect(approved.data).toMatchObject({ result: 'SUCCESS', decisionMadeBy: 'CUSTOMER_ENDPOINT', challenge: { method: 'OUT_OF_BAND', status: 'SUCCESS', orchestratedBy: 'CUSTOMER' } });
    const [declined] = given(created).when({ type: 'RespondToThreeDSChallenge', programToken, threeDSAuthenticationToken: token, response: 'DECLINE_BY_CUSTOMER' });
    expect(declined.data).toMatchObject({ result: 'DECLINE', challenge: { status: 'CANCELED_OOB' } });
  });
});

describe("an authorization's cardholder authentication", () => {
  it('shows a challenge passed as a successful, liability-shifting CHALLENGE', () => {
    const created = given([]).when(challenging);
    const authentication = state([...created, ...given(created).when(otp('123456'))]);
    expect(cardholderAuthenticationFor(authentication, token, cardToken, programToken)).toEqual({
      threeDSAuthenticationToken: token,
      method: 'CHALLENGE',
      result: 'SUCCESS',
      decisionMadeBy: 'LITHIC_DEFAULT',
      liabilityShift: '3DS_AUTHENTICATED',
    });
  });

  it('shows a frictionless success as FRICTIONLESS, and a decline without liability shift', () => {
    expect(cardholderAuthenticationFor(state(given([]).when(simulate())), token, cardToken, programToken)).toMatchObject({ method: 'FRICTIONLESS', result: 'SUCCESS' });
    expect(cardholderAuthenticationFor(state(given([]).when(simulate({ cardExpiryCheck: 'MISMATCH' }))), token, cardToken, programToken)).toMatchObject({ result: 'DECLINE', liabilityShift: 'NONE' });
  });

  it('shows a challenge never answered as authenticating nothing', () => {
    expect(cardholderAuthenticationFor(state(given([]).when(challenging)), token, cardToken, programToken)).toMatchObject({ method: 'CHALLENGE', result: 'NONE', liabilityShift: 'NONE' });
  });

  it("refuses an authentication of another card, or another program's, or none", () => {
    const authentication = state(given([]).when(simulate()));
    expect(() => cardholderAuthenticationFor(authentication, token, 'another-card', programToken)).toThrow(ThreeDSAuthenticationNotFound);
    expect(() => cardholderAuthenticationFor(authentication, token, cardToken, otherProgramToken)).toThrow(ThreeDSAuthenticationNotFound);
    expect(() => cardholderAuthenticationFor(state([]), token, cardToken, programToken)).toThrow(ThreeDSAuthenticationNotFound);
  });
});
