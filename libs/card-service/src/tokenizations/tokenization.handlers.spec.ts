import { CardVault } from '@ledger/card-vault';
import { ChangeTokenizationStatusCommand, ResendActivationCodeCommand, TokenizeCardCommand, UpdateDigitalCardArtCommand, type WalletTokenizationRequest } from '@ledger/contracts';
import {
  cardDecider,
  CardNotFound,
  cardStreamId,
  programDecider,
  ProgramNotFound,
  programStreamId,
  programTokenizationsStreamId,
  TokenizationNotFound,
  TokenizationTransitionRefused,
  tokenizationStreamId,
  type CardCreated,
  type CardEvent,
  type ProgramEvent,
  type TokenizationAction,
  type TokenizationEvent,
  type TokenizationOutcome,
} from '@ledger/domain';
import { chainEvents, type FaultPoints, type PipelineEnvironment } from '@ledger/event-store';
import { cardCreated, commandOrigin, ledgerHandlerSpecification, programCreated, programWithFundingSources } from '@ledger/runtime/test';
import { ChangeTokenizationStatusHandler, ResendActivationCodeHandler, TokenizeCardHandler, UpdateDigitalCardArtHandler } from './tokenization.handlers';

const vault = new CardVault(Buffer.alloc(32, 7));
const PROGRAM = 'prog_acme';
const OTHER_PROGRAM = 'prog_other';
const CARD = 'card_1';
const CARD_STREAM = cardStreamId(CARD);
const PROGRAM_STREAM = programStreamId(PROGRAM);
const LIST_STREAM = programTokenizationsStreamId(PROGRAM);
const PAN = '4242424242424242';
const origin = commandOrigin(PROGRAM);
const otherOrigin = commandOrigin(OTHER_PROGRAM);
const CREATED = '2025-03-10T12:00:00.000Z';
const NOW = '2025-03-14T09:26:53.589Z';
/** The program's test clock moved to this instant (wall clock NOW): its business time from then on. */
const ADVANCED_TO = '2026-01-01T00:00:00.000Z';
const POSITION = expect.stringMatching(/^\d+\/\d+$/);

const program = programWithFundingSources({ programToken: PROGRAM, created: CREATED });
const otherProgram = [programCreated({ programToken: OTHER_PROGRAM, name: 'Other', created: CREATED })];
const clockAdvanced: ProgramEvent = {
  type: 'ProgramClockAdvanced',
  data: { programToken: PROGRAM, offsetMs: Date.parse(ADVANCED_TO) - Date.parse(NOW), frozenTime: ADVANCED_TO, advancedAt: NOW },
};

/**
 * Appends `event` to `streamId` once, when the handler is about to send its write: another process's
 * change landing between the decision and its append, so the write finds the stream's version moved on.
 */
function appendingOnceBeforeTheWrite(env: PipelineEnvironment, streamId: string, folder: object, event: CardEvent | ProgramEvent): FaultPoints {
  let appended = false;
  return {
    reached(point) {
      if (point !== 'append-sent' || appended) return;
      appended = true;
      const fold = env.folds?.get(streamId, folder);
      if (!fold) throw new Error(`the fold of ${streamId} the decision was taken on is not kept`);
      const encoded = env.codec.encode(event, { eventId: '77777777-0000-4000-8000-000000000001', correlationId: 'corr-elsewhere', causationId: null, programToken: PROGRAM, occurredAt: NOW, writtenAt: NOW });
      // The in-memory store records the write within the call, so it stands before the handler's append.
      void env.store.append(streamId, chainEvents(streamId, fold.head, [encoded]), fold.version);
    },
  };
}

describe('TokenizeCardHandler', () => {
  const tokenize = ledgerHandlerSpecification({ handler: (env) => new TokenizeCardHandler(env, vault), now: new Date(NOW) });
  const TOKENIZATION = tokenize.id(1);
  const EVENT = tokenize.id(2);
  const TOKENIZATION_STREAM = tokenizationStreamId(TOKENIZATION);
  const CVV = vault.cvv(PAN, '03', '2028');

  const walletCard = (overrides: Partial<CardCreated['data']> = {}) =>
    cardCreated({ cardToken: CARD, programToken: PROGRAM, cardType: 'DIGITAL_WALLET', ...vault.protect(PAN), created: CREATED, ...overrides });
  const given = (cardEvents: CardEvent[] = [walletCard()], programEvents: ProgramEvent[] = program) => ({ [PROGRAM_STREAM]: programEvents, [CARD_STREAM]: cardEvents });
  const asked = (request: Partial<WalletTokenizationRequest> = {}, commandOrigin = origin, cardToken = CARD) =>
    new TokenizeCardCommand(commandOrigin, cardToken, { cvv: CVV, expirationDate: '03/28', source: 'APPLE_PAY', ...request });
  const decided = (outcome: TokenizationOutcome, reasons: { declineReasons?: string[]; tfaReasons?: string[]; at?: string } = {}) => ({
    [TOKENIZATION_STREAM]: [
      {
        type: 'TokenizationDecided',
        data: { tokenizationToken: TOKENIZATION, programToken: PROGRAM, cardToken: CARD, eventToken: EVENT, source: 'APPLE_PAY', outcome, declineReasons: [], tfaReasons: [], at: NOW, ...reasons },
      },
    ],
    [LIST_STREAM]: [{ type: 'TokenizationListed', data: { programToken: PROGRAM, tokenizationToken: TOKENIZATION } }],
  });

  it('given an OPEN DIGITAL_WALLET card, when a wallet presents its CVV and MM/YY expiry, then the token is approved on a new stream and listed on the program, in one write', async () => {
    const { result, writes } = await tokenize
      .given(given())
      .when((handler) => handler.execute(asked()))
      .then(decided('APPROVED'));

    expect(result).toEqual({ token: TOKENIZATION, position: POSITION });
    expect(writes).toEqual([[TOKENIZATION_STREAM, LIST_STREAM]]);
  });

  it('given the program already lists tokens, when another card is tokenized, then the new token is listed after them', async () => {
    const earlier = { type: 'TokenizationListed' as const, data: { programToken: PROGRAM, tokenizationToken: 'tok_earlier' } };
    await tokenize
      .given({ ...given(), [LIST_STREAM]: [earlier] })
      .when((handler) => handler.execute(asked()))
      .then(decided('APPROVED'));
  });

  it('given a wallet that asks for more authentication, when the card matches, then the token waits for it', async () => {
    await tokenize
      .given(given())
      .when((handler) => handler.execute(asked({ walletRecommendedDecision: 'REQUIRE_ADDITIONAL_AUTHENTICATION' })))
      .then(decided('REQUIRE_ADDITIONAL_AUTHENTICATION', { tfaReasons: ['WALLET_RECOMMENDED_TFA'] }));
  });

  it.each<{ what: string; request?: Partial<WalletTokenizationRequest>; card?: CardEvent[]; reasons: string[] }>([
    { what: 'a CVV that is not the card’s', request: { cvv: CVV === '000' ? '001' : '000' }, reasons: ['CVC_MISMATCH'] },
    { what: 'another expiry month', request: { expirationDate: '04/28' }, reasons: ['CARD_EXPIRY_MONTH_MISMATCH'] },
    { what: 'another expiry year', request: { expirationDate: '03/29' }, reasons: ['CARD_EXPIRY_YEAR_MISMATCH'] },
    // The expiry is printed MM/YY: a four-digit year is not what the card shows.
    { what: 'the expiry year in four digits', request: { expirationDate: '03/2028' }, reasons: ['CARD_EXPIRY_YEAR_MISMATCH'] },
    { what: 'an account score of 1', request: { accountScore: 1 }, reasons: ['ACCOUNT_SCORE_1'] },
    { what: 'a device score of 1', request: { deviceScore: 1 }, reasons: ['DEVICE_SCORE_1'] },
    { what: 'the wallet recommending a decline', request: { walletRecommendedDecision: 'DECLINED' }, reasons: ['WALLET_RECOMMENDED_DECISION_RED'] },
    { what: 'a card that is not DIGITAL_WALLET', card: [walletCard({ cardType: 'VIRTUAL' })], reasons: ['CARD_INVALID_STATE'] },
    { what: 'a PAUSED card', card: [walletCard(), { type: 'CardPaused', data: { cardToken: CARD } }], reasons: ['CARD_INVALID_STATE'] },
    { what: 'a CLOSED card', card: [walletCard(), { type: 'CardClosed', data: { cardToken: CARD, reason: 'REQUESTED' } }], reasons: ['CARD_INVALID_STATE'] },
    { what: 'a PAUSED card and a wrong CVV', request: { cvv: CVV === '000' ? '001' : '000' }, card: [walletCard(), { type: 'CardPaused', data: { cardToken: CARD } }], reasons: ['CARD_INVALID_STATE', 'CVC_MISMATCH'] },
  ])('given $what, when a wallet asks for a token, then it is declined with the reasons, and still recorded and listed', async ({ request, card, reasons }) => {
    const { result, writes } = await tokenize
      .given(given(card))
      .when((handler) => handler.execute(asked(request)))
      .then(decided('DECLINED', { declineReasons: reasons }));

    expect(result).toEqual({ token: TOKENIZATION, position: POSITION });
    expect(writes).toEqual([[TOKENIZATION_STREAM, LIST_STREAM]]);
  });

  it("given a renewed card, when the wallet presents the new expiry and its CVV, then it is approved, and the old expiry's CVV is not", async () => {
    const renewed: CardEvent = { type: 'CardRenewed', data: { cardToken: CARD, expMonth: '07', expYear: '2031', previousExpMonth: '03', previousExpYear: '2028', shipping: null, at: CREATED } };
    const renewedCvv = vault.cvv(PAN, '07', '2031');
    // The CVV is derived from the PAN and the expiry: the renewal must have changed it for this scenario to say anything.
    expect(renewedCvv).not.toBe(CVV);

    await tokenize
      .given(given([walletCard(), renewed]))
      .when((handler) => handler.execute(asked({ cvv: renewedCvv, expirationDate: '07/31' })))
      .then(decided('APPROVED'));
    await tokenize
      .given(given([walletCard(), renewed]))
      .when((handler) => handler.execute(asked({ cvv: CVV, expirationDate: '07/31' })))
      .then(decided('DECLINED', { declineReasons: ['CVC_MISMATCH'] }));
  });

  it("given the program's test clock advanced, when a card is tokenized, then the token is dated at the program's time", async () => {
    await tokenize
      .given(given([walletCard()], [...program, clockAdvanced]))
      .when((handler) => handler.execute(asked()))
      .then(decided('APPROVED', { at: ADVANCED_TO }));
  });

  it('given no such card, when a wallet asks for a token, then it is refused as not found', async () => {
    await tokenize.given(given()).when((handler) => handler.execute(asked({}, origin, 'card_missing'))).thenThrows(CardNotFound, { cardToken: 'card_missing' });
  });

  it("given another program's card, when that program asks for a token, then it is refused as a card that does not exist", async () => {
    await tokenize
      .given({ ...given(), [programStreamId(OTHER_PROGRAM)]: otherProgram })
      .when((handler) => handler.execute(asked({}, otherOrigin)))
      .thenThrows(CardNotFound, { cardToken: CARD, message: `Card ${CARD} not found` });
  });

  it('given no program, when a wallet asks for a token, then it is refused as a program that does not exist', async () => {
    await tokenize
      .given({ [CARD_STREAM]: [walletCard()] })
      .when((handler) => handler.execute(asked()))
      .thenThrows(ProgramNotFound, { programToken: PROGRAM });
  });

  describe('when another process changes a stream the decision read before it is written', () => {
    it('given the card is paused meanwhile, then the write is refused on the card and the token decided again, declined', async () => {
      const pausing = ledgerHandlerSpecification({
        handler: (env) => new TokenizeCardHandler({ ...env, faults: appendingOnceBeforeTheWrite(env, CARD_STREAM, cardDecider, { type: 'CardPaused', data: { cardToken: CARD } }) }, vault),
        now: new Date(NOW),
      });
      const { writes } = await pausing
        .given(given())
        .when((handler) => handler.execute(asked()))
        .then([
          { streamId: CARD_STREAM, events: [{ type: 'CardPaused', data: { cardToken: CARD } }] },
          ...Object.entries(decided('DECLINED', { declineReasons: ['CARD_INVALID_STATE'] })).map(([streamId, events]) => ({ streamId, events })),
        ]);

      expect(writes).toEqual([[CARD_STREAM], [TOKENIZATION_STREAM, LIST_STREAM]]);
    });

    it("given the program's clock advanced meanwhile, then the write is refused on the program and the token decided again at the program's new time", async () => {
      const advancing = ledgerHandlerSpecification({
        handler: (env) => new TokenizeCardHandler({ ...env, faults: appendingOnceBeforeTheWrite(env, PROGRAM_STREAM, programDecider, clockAdvanced) }, vault),
        now: new Date(NOW),
      });
      const { writes } = await advancing
        .given(given())
        .when((handler) => handler.execute(asked()))
        .then([
          { streamId: PROGRAM_STREAM, events: [clockAdvanced] },
          ...Object.entries(decided('APPROVED', { at: ADVANCED_TO })).map(([streamId, events]) => ({ streamId, events })),
        ]);

      expect(writes).toEqual([[PROGRAM_STREAM], [TOKENIZATION_STREAM, LIST_STREAM]]);
    });
  });
});

// ---------------------------------------------------------------- commands on an existing token

const TOKEN = 'tok_1';
const TOKEN_STREAM = tokenizationStreamId(TOKEN);

const tokenDecided = (outcome: TokenizationOutcome): TokenizationEvent => ({
  type: 'TokenizationDecided',
  data: {
    tokenizationToken: TOKEN,
    programToken: PROGRAM,
    cardToken: CARD,
    eventToken: 'evt_decided',
    source: 'GOOGLE',
    outcome,
    declineReasons: outcome === 'DECLINED' ? ['CVC_MISMATCH'] : [],
    tfaReasons: outcome === 'REQUIRE_ADDITIONAL_AUTHENTICATION' ? ['WALLET_RECOMMENDED_TFA'] : [],
    at: CREATED,
  },
});
const statusChanged = (action: TokenizationAction, from: 'ACTIVE' | 'PAUSED', to: 'PAUSED' | 'DEACTIVATED'): TokenizationEvent => ({
  type: 'TokenizationStatusChanged',
  data: { tokenizationToken: TOKEN, programToken: PROGRAM, eventToken: `evt_${action.toLowerCase()}`, action, from, to, at: CREATED },
});

/** A token's stream in each status a token reaches through its own events. */
const TOKEN_IN = {
  ACTIVE: [tokenDecided('APPROVED')],
  PAUSED: [tokenDecided('APPROVED'), statusChanged('PAUSE', 'ACTIVE', 'PAUSED')],
  PENDING_2FA: [tokenDecided('REQUIRE_ADDITIONAL_AUTHENTICATION')],
  DEACTIVATED: [tokenDecided('APPROVED'), statusChanged('DEACTIVATE', 'ACTIVE', 'DEACTIVATED')],
  DECLINED: [tokenDecided('DECLINED')],
} satisfies Record<string, TokenizationEvent[]>;
type GivenStatus = keyof typeof TOKEN_IN;

/** The program and the token; no card stream: a command on a token never reads the card. */
const givenToken = (status: GivenStatus, programEvents: ProgramEvent[] = program) => ({ [PROGRAM_STREAM]: programEvents, [TOKEN_STREAM]: TOKEN_IN[status] });

describe('ChangeTokenizationStatusHandler', () => {
  const change = ledgerHandlerSpecification({ handler: (env) => new ChangeTokenizationStatusHandler(env), now: new Date(NOW) });
  const EVENT = change.id(1);
  const changed = (action: TokenizationAction, from: string, to: string, at = NOW) => ({
    [TOKEN_STREAM]: [{ type: 'TokenizationStatusChanged', data: { tokenizationToken: TOKEN, programToken: PROGRAM, eventToken: EVENT, action, from, to, at } }],
  });

  it.each<{ status: GivenStatus; action: TokenizationAction; from: string; to: string }>([
    { status: 'ACTIVE', action: 'PAUSE', from: 'ACTIVE', to: 'PAUSED' },
    { status: 'PAUSED', action: 'UNPAUSE', from: 'PAUSED', to: 'ACTIVE' },
    { status: 'PENDING_2FA', action: 'ACTIVATE', from: 'PENDING_2FA', to: 'ACTIVE' },
    { status: 'ACTIVE', action: 'DEACTIVATE', from: 'ACTIVE', to: 'DEACTIVATED' },
    { status: 'PAUSED', action: 'DEACTIVATE', from: 'PAUSED', to: 'DEACTIVATED' },
    { status: 'PENDING_2FA', action: 'DEACTIVATE', from: 'PENDING_2FA', to: 'DEACTIVATED' },
  ])('given a token $status, when $action, then the move from $from to $to is recorded on the token', async ({ status, action, from, to }) => {
    const { result } = await change
      .given(givenToken(status))
      .when((handler) => handler.execute(new ChangeTokenizationStatusCommand(origin, TOKEN, action)))
      .then(changed(action, from, to));

    expect(result).toEqual({ token: TOKEN, position: POSITION });
  });

  it.each<{ status: GivenStatus; action: TokenizationAction; refused: string }>([
    { status: 'ACTIVE', action: 'ACTIVATE', refused: 'is ACTIVE and cannot be activated' },
    { status: 'ACTIVE', action: 'UNPAUSE', refused: 'is ACTIVE and cannot be unpaused' },
    { status: 'PAUSED', action: 'PAUSE', refused: 'is PAUSED and cannot be paused' },
    { status: 'PAUSED', action: 'ACTIVATE', refused: 'is PAUSED and cannot be activated' },
    { status: 'PENDING_2FA', action: 'PAUSE', refused: 'is PENDING_2FA and cannot be paused' },
    { status: 'DEACTIVATED', action: 'ACTIVATE', refused: 'is DEACTIVATED and cannot be activated' },
    { status: 'DEACTIVATED', action: 'UNPAUSE', refused: 'is DEACTIVATED and cannot be unpaused' },
    { status: 'DEACTIVATED', action: 'DEACTIVATE', refused: 'is DEACTIVATED and cannot be deactivated' },
    { status: 'DECLINED', action: 'ACTIVATE', refused: 'is DEACTIVATED and cannot be activated' },
  ])('given a token $status, when $action, then it is refused and nothing is recorded', async ({ status, action, refused }) => {
    await change
      .given(givenToken(status))
      .when((handler) => handler.execute(new ChangeTokenizationStatusCommand(origin, TOKEN, action)))
      .thenThrows(TokenizationTransitionRefused, { message: `Tokenization ${TOKEN} ${refused}`, field: 'tokenization_token' });
  });

  it("given the program's test clock advanced, when a token is paused, then the change is dated at the program's time", async () => {
    await change
      .given(givenToken('ACTIVE', [...program, clockAdvanced]))
      .when((handler) => handler.execute(new ChangeTokenizationStatusCommand(origin, TOKEN, 'PAUSE')))
      .then(changed('PAUSE', 'ACTIVE', 'PAUSED', ADVANCED_TO));
  });

  it('given no such token, when paused, then it is refused as not found', async () => {
    await change
      .given({ [PROGRAM_STREAM]: program })
      .when((handler) => handler.execute(new ChangeTokenizationStatusCommand(origin, TOKEN, 'PAUSE')))
      .thenThrows(TokenizationNotFound, { tokenizationToken: TOKEN });
  });

  it("given another program's token, when that program pauses it, then it is refused as a token that does not exist", async () => {
    await change
      .given({ ...givenToken('ACTIVE'), [programStreamId(OTHER_PROGRAM)]: otherProgram })
      .when((handler) => handler.execute(new ChangeTokenizationStatusCommand(otherOrigin, TOKEN, 'PAUSE')))
      .thenThrows(TokenizationNotFound, { tokenizationToken: TOKEN, message: `Tokenization ${TOKEN} not found` });
  });

  it('given no program, when a token is paused, then it is refused as a program that does not exist', async () => {
    await change
      .given({ [TOKEN_STREAM]: TOKEN_IN.ACTIVE })
      .when((handler) => handler.execute(new ChangeTokenizationStatusCommand(origin, TOKEN, 'PAUSE')))
      .thenThrows(ProgramNotFound, { programToken: PROGRAM });
  });
});

describe('ResendActivationCodeHandler', () => {
  const resend = ledgerHandlerSpecification({ handler: (env) => new ResendActivationCodeHandler(env), now: new Date(NOW) });
  const EVENT = resend.id(1);
  const resent = (method: 'EMAIL_TO_CARDHOLDER_ADDRESS' | 'TEXT_TO_CARDHOLDER_NUMBER', at = NOW) => ({
    [TOKEN_STREAM]: [{ type: 'TokenizationActivationCodeResent', data: { tokenizationToken: TOKEN, programToken: PROGRAM, eventToken: EVENT, method, at } }],
  });

  it.each(['EMAIL_TO_CARDHOLDER_ADDRESS', 'TEXT_TO_CARDHOLDER_NUMBER'] as const)('given a token PENDING_2FA, when a code is resent by %s, then the resend is recorded on the token', async (method) => {
    const { result } = await resend
      .given(givenToken('PENDING_2FA'))
      .when((handler) => handler.execute(new ResendActivationCodeCommand(origin, TOKEN, method)))
      .then(resent(method));

    expect(result).toEqual({ token: TOKEN, position: POSITION });
  });

  it.each<{ status: GivenStatus; shown: string }>([
    { status: 'ACTIVE', shown: 'ACTIVE' },
    { status: 'PAUSED', shown: 'PAUSED' },
    { status: 'DEACTIVATED', shown: 'DEACTIVATED' },
  ])('given a token $status, when a code is resent, then it is refused: no code is sent to a token not waiting for one', async ({ status, shown }) => {
    await resend
      .given(givenToken(status))
      .when((handler) => handler.execute(new ResendActivationCodeCommand(origin, TOKEN, 'TEXT_TO_CARDHOLDER_NUMBER')))
      .thenThrows(TokenizationTransitionRefused, { message: `Tokenization ${TOKEN} is ${shown} and cannot be sent an activation code` });
  });

  it("given the program's test clock advanced, when a code is resent, then the resend is dated at the program's time", async () => {
    await resend
      .given(givenToken('PENDING_2FA', [...program, clockAdvanced]))
      .when((handler) => handler.execute(new ResendActivationCodeCommand(origin, TOKEN, 'EMAIL_TO_CARDHOLDER_ADDRESS')))
      .then(resent('EMAIL_TO_CARDHOLDER_ADDRESS', ADVANCED_TO));
  });

  it("given no such token, or another program's, when a code is resent, then it is refused as not found", async () => {
    await resend
      .given({ [PROGRAM_STREAM]: program })
      .when((handler) => handler.execute(new ResendActivationCodeCommand(origin, TOKEN, 'TEXT_TO_CARDHOLDER_NUMBER')))
      .thenThrows(TokenizationNotFound, { tokenizationToken: TOKEN });
    await resend
      .given({ ...givenToken('PENDING_2FA'), [programStreamId(OTHER_PROGRAM)]: otherProgram })
      .when((handler) => handler.execute(new ResendActivationCodeCommand(otherOrigin, TOKEN, 'TEXT_TO_CARDHOLDER_NUMBER')))
      .thenThrows(TokenizationNotFound, { tokenizationToken: TOKEN });
  });

  it('given no program, when a code is resent, then it is refused as a program that does not exist', async () => {
    await resend
      .given({ [TOKEN_STREAM]: TOKEN_IN.PENDING_2FA })
      .when((handler) => handler.execute(new ResendActivationCodeCommand(origin, TOKEN, 'TEXT_TO_CARDHOLDER_NUMBER')))
      .thenThrows(ProgramNotFound, { programToken: PROGRAM });
  });
});

describe('UpdateDigitalCardArtHandler', () => {
  const art = ledgerHandlerSpecification({ handler: (env) => new UpdateDigitalCardArtHandler(env), now: new Date(NOW) });
  const EVENT = art.id(1);
  const ART = 'a1b2c3d4-0000-4000-8000-000000000001';
  const updated = (digitalCardArtToken: string | null, at = NOW) => ({
    [TOKEN_STREAM]: [{ type: 'TokenizationDigitalCardArtUpdated', data: { tokenizationToken: TOKEN, programToken: PROGRAM, eventToken: EVENT, digitalCardArtToken, at } }],
  });

  it.each<{ status: GivenStatus; artToken: string | null; what: string }>([
    { status: 'ACTIVE', artToken: ART, what: 'set' },
    { status: 'PAUSED', artToken: ART, what: 'set' },
    { status: 'PENDING_2FA', artToken: ART, what: 'set' },
    { status: 'ACTIVE', artToken: null, what: 'cleared (null)' },
  ])('given a token $status, when its card art is $what, then the change is recorded on the token', async ({ status, artToken }) => {
    const { result } = await art
      .given(givenToken(status))
      .when((handler) => handler.execute(new UpdateDigitalCardArtCommand(origin, TOKEN, artToken)))
      .then(updated(artToken));

    expect(result).toEqual({ token: TOKEN, position: POSITION });
  });

  it.each(['DEACTIVATED', 'DECLINED'] as const)('given a token %s, when its card art is changed, then it is refused', async (status) => {
    await art
      .given(givenToken(status))
      .when((handler) => handler.execute(new UpdateDigitalCardArtCommand(origin, TOKEN, ART)))
      .thenThrows(TokenizationTransitionRefused, { message: `Tokenization ${TOKEN} is DEACTIVATED and cannot be given new card art` });
  });

  it("given the program's test clock advanced, when card art is changed, then the change is dated at the program's time", async () => {
    await art
      .given(givenToken('ACTIVE', [...program, clockAdvanced]))
      .when((handler) => handler.execute(new UpdateDigitalCardArtCommand(origin, TOKEN, ART)))
      .then(updated(ART, ADVANCED_TO));
  });

  it("given no such token, or another program's, when card art is changed, then it is refused as not found", async () => {
    await art
      .given({ [PROGRAM_STREAM]: program })
      .when((handler) => handler.execute(new UpdateDigitalCardArtCommand(origin, TOKEN, ART)))
      .thenThrows(TokenizationNotFound, { tokenizationToken: TOKEN });
    await art
      .given({ ...givenToken('ACTIVE'), [programStreamId(OTHER_PROGRAM)]: otherProgram })
      .when((handler) => handler.execute(new UpdateDigitalCardArtCommand(otherOrigin, TOKEN, ART)))
      .thenThrows(TokenizationNotFound, { tokenizationToken: TOKEN });
  });

  it('given no program, when card art is changed, then it is refused as a program that does not exist', async () => {
    await art
      .given({ [TOKEN_STREAM]: TOKEN_IN.ACTIVE })
      .when((handler) => handler.execute(new UpdateDigitalCardArtCommand(origin, TOKEN, ART)))
      .thenThrows(ProgramNotFound, { programToken: PROGRAM });
  });
});
