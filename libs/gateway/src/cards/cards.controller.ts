import { Body, Param, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { CallingProgram } from '@ledger/auth';
import {
  AsOfParams,
  CardPageModel,
  CardResponse,
  CardSpendLimitsResponse,
  CardTokenParam,
  CommandAccepted,
  CommandOrigin,
  ConvertPhysicalRequest,
  CreateCardCommand,
  CreateCardRequest,
  FulfillCardCommand,
  GetCardQuery,
  GetCardSpendLimitsQuery,
  ListCardsParams,
  ListCardsQuery,
  Page,
  ReissueCardRequest,
  RenewCardRequest,
  SearchCardByPanQuery,
  SearchCardByPanRequest,
  UpdateCardCommand,
  UpdateCardRequest,
} from '@ledger/contracts';
import type { FulfillmentCommand } from '@ledger/domain';
import { TimeTravel } from '../audit/time-travel';
import { ProgramApi, Route } from '../http/api-routes';
import { pageRequest } from '../listing/paging';
import { CallerOrigin } from '../http/command-origin';
import { RequestInvalid } from '../http/errors';
import { WriteAcknowledger } from '../http/write-acknowledger';
import { plasticOrderOf } from './plastic-order';

@ProgramApi('cards', 'v1')
export class CardsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly acknowledger: WriteAcknowledger,
    private readonly timeTravel: TimeTravel,
  ) {}

  /** The spec's decline walkthrough posts to /v1/card; the plural path is the documented one. */
  @Route('POST', ['cards', 'card'], { summary: 'Create a card (spec 4.5); /v1/card is an alias of /v1/cards', answers: CardResponse, errors: [404] })
  async create(@CallerOrigin() origin: CommandOrigin, @Body() body: CreateCardRequest): Promise<CardResponse> {
    checkedExpiryPair(body);
    const accepted = await this.commands.execute<CreateCardCommand, CommandAccepted>(
      new CreateCardCommand(origin, {
        type: body.type,
        memo: body.memo,
        fundingToken: body.funding_token,
        spendLimit: body.spend_limit,
        spendLimitDuration: body.spend_limit_duration,
        state: body.state,
        expiry: body.exp_month && body.exp_year ? { month: body.exp_month, year: body.exp_year } : undefined,
        pin: body.pin,
        cardProgramToken: body.card_program_token,
        shipping: plasticOrderOf(body),
        replacementFor: body.replacement_for,
      }),
    );
    return this.answer(origin, accepted);
  }

  @Route('POST', 'cards/:card_token/renew', {
    summary: "Lithic's cards.renew: a new expiry (and so a new CVV), same token and PAN; a PHYSICAL card's new plastic is ordered. Limits and state stay",
    answers: CardResponse,
    errors: [404, 409],
  })
  renew(@CallerOrigin() origin: CommandOrigin, @Param() { card_token }: CardTokenParam, @Body() body: RenewCardRequest): Promise<CardResponse> {
    checkedExpiryPair(body);
    const expiry = body.exp_month && body.exp_year ? { month: body.exp_month, year: body.exp_year } : undefined;
    return this.fulfill(origin, { type: 'RenewCard', cardToken: card_token, programToken: origin.programToken, expiry, shipping: plasticOrderOf(body) });
  }

  @Route('POST', 'cards/:card_token/reissue', {
    summary: "Lithic's cards.reissue: a duplicate plastic of a PHYSICAL card (same PAN, expiry and CVV), to the last address unless one is given",
    answers: CardResponse,
    errors: [404, 409],
  })
  reissue(@CallerOrigin() origin: CommandOrigin, @Param() { card_token }: CardTokenParam, @Body() body: ReissueCardRequest): Promise<CardResponse> {
    return this.fulfill(origin, { type: 'ReissueCard', cardToken: card_token, programToken: origin.programToken, shipping: plasticOrderOf(body) });
  }

  @Route('POST', 'cards/:card_token/convert_physical', {
    summary: "Lithic's cards.convertPhysical: an OPEN virtual card becomes PHYSICAL (same token and PAN), PENDING_FULFILLMENT with its plastic ordered",
    answers: CardResponse,
    errors: [404, 409],
  })
  convertPhysical(@CallerOrigin() origin: CommandOrigin, @Param() { card_token }: CardTokenParam, @Body() body: ConvertPhysicalRequest): Promise<CardResponse> {
    const shipping = plasticOrderOf(body);
    if (!shipping) throw new RequestInvalid('shipping_address is required to convert a card to PHYSICAL');
    return this.fulfill(origin, { type: 'ConvertCardToPhysical', cardToken: card_token, programToken: origin.programToken, shipping });
  }

  @Route('PATCH', 'cards/:card_token', { summary: 'Update a card (spec 4.6); CLOSED is final', answers: CardResponse, errors: [404, 409] })
  async update(@CallerOrigin() origin: CommandOrigin, @Param() { card_token }: CardTokenParam, @Body() body: UpdateCardRequest): Promise<CardResponse> {
    const accepted = await this.commands.execute<UpdateCardCommand, CommandAccepted>(
      new UpdateCardCommand(origin, card_token, {
        state: body.state,
        memo: body.memo,
        fundingToken: body.funding_token,
        spendLimit: body.spend_limit,
        spendLimitDuration: body.spend_limit_duration,
        pin: body.pin,
      }),
    );
    return this.answer(origin, accepted);
  }

  /** No other parameter is allowed with the card token (spec 4.7), except `as_of` for auditors. */
  @Route('GET', 'cards/:card_token', { summary: 'Get one card (spec 4.7); `as_of` shows it as it was then', answers: CardResponse, errors: [404] })
  get(@CallingProgram() programToken: string, @Param() { card_token }: CardTokenParam, @Query() { as_of }: AsOfParams): Promise<CardResponse> {
    if (as_of !== undefined) return this.timeTravel.card(programToken, card_token, as_of);
    return this.queries.execute(new GetCardQuery(programToken, card_token));
  }

  /** A read sent as POST so the number travels in the body, never in a URL or an access log. */
  @Route('POST', 'cards/search_by_pan', {
    summary: 'Lithic\'s cards.searchByPan: the calling program\'s card with this number (another program\'s answers 404, as a missing one)',
    answers: CardResponse,
    errors: [404],
  })
  searchByPan(@CallingProgram() programToken: string, @Body() { pan }: SearchCardByPanRequest): Promise<CardResponse> {
    return this.queries.execute(new SearchCardByPanQuery(programToken, pan));
  }

  @Route('GET', 'cards/:card_token/spend_limits', {
    summary: 'Lithic\'s card spend limits: the limit over the card\'s window, what counts against it and what is left',
    answers: CardSpendLimitsResponse,
    errors: [404],
  })
  spendLimits(@CallingProgram() programToken: string, @Param() { card_token }: CardTokenParam): Promise<CardSpendLimitsResponse> {
    return this.queries.execute(new GetCardSpendLimitsQuery(programToken, card_token));
  }

  @Route('GET', 'cards', { summary: 'List the program\'s cards, oldest first (spec 4.7)', answers: CardPageModel })
  list(@CallingProgram() programToken: string, @Query() params: ListCardsParams): Promise<Page<CardResponse>> {
    return this.queries.execute(
      new ListCardsQuery(
        programToken,
        {
          accountToken: params.account_token,
          createdFrom: params.begin,
          createdBefore: params.end,
          state: params.state,
          memoContains: params.memo,
        },
        pageRequest(params),
      ),
    );
  }

  private async fulfill(origin: CommandOrigin, command: FulfillmentCommand): Promise<CardResponse> {
    return this.answer(origin, await this.commands.execute<FulfillCardCommand, CommandAccepted>(new FulfillCardCommand(origin, command)));
  }

  private answer({ programToken }: CommandOrigin, accepted: CommandAccepted): Promise<CardResponse> {
    return this.acknowledger.answer(accepted, () => this.queries.execute(new GetCardQuery(programToken, accepted.token)));
  }
}

/** An expiry is given whole or not at all. */
function checkedExpiryPair(body: { readonly exp_month?: string; readonly exp_year?: string }): void {
  if ((body.exp_month === undefined) !== (body.exp_year === undefined)) {
    throw new RequestInvalid(`${body.exp_month === undefined ? 'exp_month' : 'exp_year'} is required when the other expiry field is given`);
  }
}
