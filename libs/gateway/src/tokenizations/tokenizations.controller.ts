import { Body, Inject, Param, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CallingProgram } from '@ledger/auth';
import {
  CardProvisionResponse,
  CardTokenParam,
  CardWebProvisionResponse,
  ChangeTokenizationStatusCommand,
  CommandAccepted,
  CommandOrigin,
  EmptyModel,
  ledgerCodec,
  ListTokenizationsParams,
  Page,
  presentTokenization,
  ProvisionCardRequest,
  ResendActivationCodeCommand,
  ResendActivationCodeRequest,
  SimulateTokenizationCommand,
  SimulateTokenizationRequest,
  TokenizationPageModel,
  TokenizationResponse,
  TokenizationTokenParam,
  UpdateDigitalCardArtCommand,
  UpdateDigitalCardArtRequest,
  WebProvisionCardRequest,
} from '@ledger/contracts';
import { cardDecider, type CardEvent, cardStreamId, type ExistingTokenization, type IssuedCard, provisionableCard, type TokenizationAction } from '@ledger/domain';
import { EventStore } from '@ledger/event-store';
import { EVENT_STORE } from '@ledger/runtime';
import { ProgramApi, Route } from '../http/api-routes';
import { CallerOrigin } from '../http/command-origin';
import { inMemoryPage, pageRequest } from '../listing/paging';
import { provisioningPayload, webProvisioningPayload } from './provisioning-payloads';
import { TokenizationStreams } from './tokenization-streams';

/** Lithic lists DIGITAL_WALLET tokens unless asked for MERCHANT ones or ALL. */
function matches(tokenization: ExistingTokenization, params: ListTokenizationsParams, programToken: string): boolean {
  const channel = params.tokenization_channel ?? 'DIGITAL_WALLET';
  const shown = presentTokenization(tokenization);
  if (params.account_token !== undefined && params.account_token !== programToken) return false;
  if (params.card_token !== undefined && params.card_token !== tokenization.cardToken) return false;
  if (channel !== 'ALL' && channel !== shown.tokenization_channel) return false;
  const created = Date.parse(tokenization.createdAt);
  if (params.begin !== undefined && created < params.begin.getTime()) return false;
  if (params.end !== undefined && created >= params.end.getTime()) return false;
  return true;
}

/**
 * Lithic's Tokenizations (`client.tokenizations`): a card's tokens in digital wallets. Writes are
 * decided in the card-service; the answers fold the tokens' own streams, so a write is visible in its
 * answer and in every read after it. Another program's token answers 404.
 */
@ProgramApi('tokenizations', 'v1/tokenizations', { errors: [404, 409] })
export class TokenizationsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly streams: TokenizationStreams,
  ) {}

  @Route('GET', '', { summary: "List the program's tokens, oldest first", answers: TokenizationPageModel })
  async list(@CallingProgram() programToken: string, @Query() params: ListTokenizationsParams): Promise<Page<TokenizationResponse>> {
    const tokenizations = (await this.streams.tokenizations(programToken)).filter((tokenization) => matches(tokenization, params, programToken));
    return inMemoryPage(pageRequest(params), tokenizations, (tokenization) => tokenization.tokenizationToken, 'tokenization', async (shown) => shown.map(presentTokenization));
  }

  @Route('GET', ':tokenization_token', { summary: 'Get a token', answers: TokenizationResponse })
  async get(@CallingProgram() programToken: string, @Param() { tokenization_token }: TokenizationTokenParam): Promise<TokenizationResponse> {
    return presentTokenization(await this.streams.tokenization(programToken, tokenization_token));
  }

  @Route('POST', ':tokenization_token/activate', { summary: 'Activate a token waiting for activation or 2FA', answers: EmptyModel })
  activate(@CallerOrigin() origin: CommandOrigin, @Param() { tokenization_token }: TokenizationTokenParam): Promise<Record<string, never>> {
    return this.change(origin, tokenization_token, 'ACTIVATE');
  }

  @Route('POST', ':tokenization_token/pause', { summary: "Pause an ACTIVE token: its transactions are declined until it is unpaused", answers: EmptyModel })
  pause(@CallerOrigin() origin: CommandOrigin, @Param() { tokenization_token }: TokenizationTokenParam): Promise<Record<string, never>> {
    return this.change(origin, tokenization_token, 'PAUSE');
  }

  @Route('POST', ':tokenization_token/unpause', { summary: 'Unpause a PAUSED token', answers: EmptyModel })
  unpause(@CallerOrigin() origin: CommandOrigin, @Param() { tokenization_token }: TokenizationTokenParam): Promise<Record<string, never>> {
    return this.change(origin, tokenization_token, 'UNPAUSE');
  }

  @Route('POST', ':tokenization_token/deactivate', { summary: 'Deactivate a token for good', answers: EmptyModel })
  deactivate(@CallerOrigin() origin: CommandOrigin, @Param() { tokenization_token }: TokenizationTokenParam): Promise<Record<string, never>> {
    return this.change(origin, tokenization_token, 'DEACTIVATE');
  }

  @Route('POST', ':tokenization_token/resend_activation_code', { summary: 'Send the cardholder the activation code again (a token waiting for 2FA or activation)', answers: EmptyModel })
  async resendActivationCode(@CallerOrigin() origin: CommandOrigin, @Param() { tokenization_token }: TokenizationTokenParam, @Body() body: ResendActivationCodeRequest): Promise<Record<string, never>> {
    await this.commands.execute<ResendActivationCodeCommand, CommandAccepted>(new ResendActivationCodeCommand(origin, tokenization_token, body.activation_method_type ?? 'TEXT_TO_CARDHOLDER_NUMBER'));
    return {};
  }

  @Route('POST', ':tokenization_token/update_digital_card_art', { summary: "Set the art the wallet shows for the token", answers: TokenizationResponse })
  async updateDigitalCardArt(@CallerOrigin() origin: CommandOrigin, @Param() { tokenization_token }: TokenizationTokenParam, @Body() body: UpdateDigitalCardArtRequest): Promise<TokenizationResponse> {
    await this.commands.execute<UpdateDigitalCardArtCommand, CommandAccepted>(new UpdateDigitalCardArtCommand(origin, tokenization_token, body.digital_card_art_token ?? null));
    return presentTokenization(await this.streams.tokenization(origin.programToken, tokenization_token));
  }

  private async change(origin: CommandOrigin, tokenizationToken: string, action: TokenizationAction): Promise<Record<string, never>> {
    await this.commands.execute<ChangeTokenizationStatusCommand, CommandAccepted>(new ChangeTokenizationStatusCommand(origin, tokenizationToken, action));
    return {};
  }
}

/** Lithic's `tokenizations.simulate`: a wallet asks to tokenize the card with this number. Sandbox only. */
@ProgramApi('simulations (sandbox only)', 'v1/simulate', { errors: [404], sandboxOnly: true })
export class TokenizationSimulationsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly streams: TokenizationStreams,
  ) {}

  @Route('POST', 'tokenizations', { summary: "Simulate a wallet's request to tokenize a card; the answer is the token, approved, declined or waiting for 2FA", answers: TokenizationResponse })
  async simulate(@CallerOrigin() origin: CommandOrigin, @Body() body: SimulateTokenizationRequest): Promise<TokenizationResponse> {
    const accepted = await this.commands.execute<SimulateTokenizationCommand, CommandAccepted>(
      new SimulateTokenizationCommand(origin, body.pan, {
        cvv: body.cvv,
        expirationDate: body.expiration_date,
        source: body.tokenization_source,
        accountScore: body.account_score,
        deviceScore: body.device_score,
        walletRecommendedDecision: body.wallet_recommended_decision,
      }),
    );
    return presentTokenization(await this.streams.tokenization(origin.programToken, accepted.token));
  }
}

/** Lithic's `cards.provision` and `cards.webProvision`: what a wallet app needs to add a DIGITAL_WALLET card. */
@ProgramApi('tokenizations', 'v1/cards', { errors: [404, 409] })
export class CardProvisioningController {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  @Route('POST', ':card_token/provision', { summary: 'The payload a wallet app pushes to add the card (sandbox: a digest, see the API guide)', answers: CardProvisionResponse })
  async provision(@CallingProgram() programToken: string, @Param() { card_token }: CardTokenParam, @Body() body: ProvisionCardRequest): Promise<CardProvisionResponse> {
    const card = await this.provisionable(programToken, card_token);
    const device = { nonce: body.nonce, nonceSignature: body.nonce_signature, certificate: body.certificate, clientDeviceId: body.client_device_id, clientWalletAccountId: body.client_wallet_account_id };
    return { provisioning_payload: provisioningPayload(card.cardToken, body.digital_wallet ?? 'APPLE_PAY', device) };
  }

  @Route('POST', ':card_token/web_provision', { summary: "The payload a wallet's web push provisioning takes (sandbox: a digest, see the API guide)", answers: CardWebProvisionResponse })
  async webProvision(@CallingProgram() programToken: string, @Param() { card_token }: CardTokenParam, @Body() body: WebProvisionCardRequest): Promise<CardWebProvisionResponse> {
    const card = await this.provisionable(programToken, card_token);
    const device = { clientDeviceId: body.client_device_id, clientWalletAccountId: body.client_wallet_account_id, serverSessionId: body.server_session_id };
    return webProvisioningPayload(card.cardToken, body.digital_wallet ?? 'APPLE_PAY', device);
  }

  /** The card's own stream, folded: the truth its spending is decided on. */
  private async provisionable(programToken: string, cardToken: string): Promise<IssuedCard> {
    const events = (await this.store.readStream(cardStreamId(cardToken))).map((event) => ledgerCodec<CardEvent>().decode(event));
    return provisionableCard(events.reduce(cardDecider.evolve, cardDecider.initialState()), cardToken, programToken);
  }
}
