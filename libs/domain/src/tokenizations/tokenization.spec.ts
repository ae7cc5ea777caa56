import { cardToken, now, otherProgramToken, programToken } from '../../test/fixtures';
import {
  type DecideTokenization,
  type Tokenization,
  type TokenizationAction,
  type TokenizationCommand,
  type TokenizationEvent,
  tokenizationDecider,
  tokenizationStreamId,
  tokenUniqueReferenceOf,
} from './tokenization';
import { TokenizationNotFound, TokenizationTransitionRefused } from './tokenization-errors';
import { programTokenizationsDecider, programTokenizationsStreamId } from './program-tokenizations';

const tokenizationToken = '3f6b2a1c-9d8e-4f7a-b6c5-d4e3f2a1b0c9';
const eventToken = '11111111-2222-4333-8444-555555555555';
const at = now.toISOString();

const request = (overrides: Partial<DecideTokenization> = {}): DecideTokenization => ({
  type: 'DecideTokenization',
  tokenizationToken,
  eventToken,
  card: { cardToken, programToken, cardType: 'DIGITAL_WALLET', state: 'OPEN' },
  presented: { cvv: true, expMonth: true, expYear: true },
  source: 'APPLE_PAY',
  ...overrides,
});

function given(events: TokenizationEvent[]) {
  const state: Tokenization = events.reduce(tokenizationDecider.evolve, tokenizationDecider.initialState());
  return {
    state,
    when: (command: TokenizationCommand) => tokenizationDecider.decide(command, state, { now }),
  };
}

const decided = (outcome: 'APPROVED' | 'DECLINED' | 'REQUIRE_ADDITIONAL_AUTHENTICATION' = 'APPROVED'): TokenizationEvent => given([]).when(request(outcome === 'APPROVED' ? {} : { walletRecommendedDecision: outcome }))[0];
const change = (action: TokenizationAction, owner = programToken): TokenizationCommand => ({ type: 'ChangeTokenizationStatus', tokenizationToken, programToken: owner, eventToken, action });
const statusAfter = (events: TokenizationEvent[]) => {
  const { state } = given(events);
  return state.status === 'existing' ? state.tokenStatus : 'absent';
};

describe('tokenization', () => {
  it('lives on a stream of its own, listed on its program\'s', () => {
    expect(tokenizationStreamId(tokenizationToken)).toBe(`tokenization-${tokenizationToken}`);
    expect(programTokenizationsStreamId(programToken)).toBe(`tokenizations-${programToken}`);
  });

  it('given nothing, when a wallet asks for a DIGITAL_WALLET card with matching details, then it is approved and ACTIVE', () => {
    const events = given([]).when(request());
    expect(events).toEqual([
      { type: 'TokenizationDecided', data: { tokenizationToken, programToken, cardToken, eventToken, source: 'APPLE_PAY', outcome: 'APPROVED', declineReasons: [], tfaReasons: [], at } },
    ]);
    expect(given(events).state).toMatchObject({ tokenStatus: 'ACTIVE', createdAt: at, history: [{ type: 'TOKENIZATION_AUTHORIZATION', result: 'APPROVED' }] });
  });

  it('when the wallet asks for more authentication, then the token waits for it (PENDING_2FA)', () => {
    const [event] = given([]).when(request({ walletRecommendedDecision: 'REQUIRE_ADDITIONAL_AUTHENTICATION' }));
    expect(event.data).toMatchObject({ outcome: 'REQUIRE_ADDITIONAL_AUTHENTICATION', tfaReasons: ['WALLET_RECOMMENDED_TFA'] });
    expect(statusAfter([event])).toBe('PENDING_2FA');
  });

  it.each([
    ['the wallet recommends declining', { walletRecommendedDecision: 'DECLINED' as const }, ['WALLET_RECOMMENDED_DECISION_RED']],
    ['the account score is 1', { accountScore: 1 }, ['ACCOUNT_SCORE_1']],
    ['the device score is 1', { deviceScore: 1 }, ['DEVICE_SCORE_1']],
    ['the CVV does not match', { presented: { cvv: false, expMonth: true, expYear: true } }, ['CVC_MISMATCH']],
    ['the expiry does not match', { presented: { cvv: true, expMonth: false, expYear: false } }, ['CARD_EXPIRY_MONTH_MISMATCH', 'CARD_EXPIRY_YEAR_MISMATCH']],
    ['the card is not a DIGITAL_WALLET card', { card: { cardToken, programToken, cardType: 'SINGLE_USE' as const, state: 'OPEN' as const } }, ['CARD_INVALID_STATE']],
    ['the card is paused', { card: { cardToken, programToken, cardType: 'DIGITAL_WALLET' as const, state: 'PAUSED' as const } }, ['CARD_INVALID_STATE']],
  ])('when %s, then it is declined with that reason and DEACTIVATED', (_case, overrides, reasons) => {
    const [event] = given([]).when(request(overrides));
    expect(event.data).toMatchObject({ outcome: 'DECLINED', declineReasons: reasons });
    expect(statusAfter([event])).toBe('DEACTIVATED');
  });

  it('given a token, when it is decided again, then nothing is recorded', () => {
    expect(given([decided()]).when(request())).toEqual([]);
  });

  it('given an ACTIVE token, when paused, unpaused and deactivated, then each step is recorded with where it came from', () => {
    const paused = given([decided()]).when(change('PAUSE'));
    expect(paused).toEqual([{ type: 'TokenizationStatusChanged', data: { tokenizationToken, programToken, eventToken, action: 'PAUSE', from: 'ACTIVE', to: 'PAUSED', at } }]);
    const unpaused = given([decided(), ...paused]).when(change('UNPAUSE'));
    expect(statusAfter([decided(), ...paused, ...unpaused])).toBe('ACTIVE');
    const deactivated = given([decided(), ...paused, ...unpaused]).when(change('DEACTIVATE'));
    const { state } = given([decided(), ...paused, ...unpaused, ...deactivated]);
    expect(state).toMatchObject({ tokenStatus: 'DEACTIVATED', history: [{ result: 'APPROVED' }, { result: 'TOKEN_SUSPENDED' }, { result: 'TOKEN_ACTIVATED' }, { result: 'TOKEN_DEACTIVATED' }] });
  });

  it('given a token waiting for 2FA, when activated, then it is ACTIVE', () => {
    const pending = decided('REQUIRE_ADDITIONAL_AUTHENTICATION');
    expect(statusAfter([pending, ...given([pending]).when(change('ACTIVATE'))])).toBe('ACTIVE');
  });

  it.each([
    ['activated while ACTIVE', [], 'ACTIVATE' as const],
    ['unpaused while ACTIVE', [], 'UNPAUSE' as const],
    ['paused twice', ['PAUSE' as const], 'PAUSE' as const],
    ['paused once DEACTIVATED', ['DEACTIVATE' as const], 'PAUSE' as const],
    ['deactivated twice', ['DEACTIVATE' as const], 'DEACTIVATE' as const],
  ])('refuses a token %s', (_case, before, action) => {
    let events: TokenizationEvent[] = [decided()];
    for (const step of before) events = [...events, ...given(events).when(change(step))];
    expect(() => given(events).when(change(action))).toThrow(TokenizationTransitionRefused);
  });

  it('given a declined token, when activated, then it is refused: a declined token is final', () => {
    expect(() => given([decided('DECLINED')]).when(change('ACTIVATE'))).toThrow(TokenizationTransitionRefused);
  });

  it('answers another program\'s token, or none, as not found', () => {
    expect(() => given([decided()]).when(change('PAUSE', otherProgramToken))).toThrow(TokenizationNotFound);
    expect(() => given([]).when(change('PAUSE'))).toThrow(TokenizationNotFound);
  });

  it('resends an activation code only while the token waits for one', () => {
    const resend: TokenizationCommand = { type: 'ResendActivationCode', tokenizationToken, programToken, eventToken, method: 'TEXT_TO_CARDHOLDER_NUMBER' };
    const pending = decided('REQUIRE_ADDITIONAL_AUTHENTICATION');
    expect(given([pending]).when(resend)).toEqual([{ type: 'TokenizationActivationCodeResent', data: { tokenizationToken, programToken, eventToken, method: 'TEXT_TO_CARDHOLDER_NUMBER', at } }]);
    expect(() => given([decided()]).when(resend)).toThrow(TokenizationTransitionRefused);
  });

  it('updates the digital card art of a live token, not of a deactivated one', () => {
    const art: TokenizationCommand = { type: 'UpdateDigitalCardArt', tokenizationToken, programToken, eventToken, digitalCardArtToken: 'a1b2c3d4-0000-4000-8000-000000000001' };
    const events = given([decided()]).when(art);
    expect(given([decided(), ...events]).state).toMatchObject({ digitalCardArtToken: 'a1b2c3d4-0000-4000-8000-000000000001', history: [{}, { result: 'TOKEN_UPDATED' }] });
    expect(() => given([decided('DECLINED')]).when(art)).toThrow(TokenizationTransitionRefused);
  });

  it('gives a token the same network reference every time', () => {
    expect(tokenUniqueReferenceOf(tokenizationToken)).toBe('DNITHE3F6B2A1C9D8E4F7AB6C5D4E3F2A1B0C9');
  });

  it('lists a program\'s token once', () => {
    const list = { type: 'ListTokenization' as const, programToken, tokenizationToken };
    const listed = programTokenizationsDecider.decide(list, programTokenizationsDecider.initialState(), { now });
    const state = listed.reduce(programTokenizationsDecider.evolve, programTokenizationsDecider.initialState());
    expect(state.tokenizationTokens).toEqual([tokenizationToken]);
    expect(programTokenizationsDecider.decide(list, state, { now })).toEqual([]);
  });
});
