import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard, CallingProgram } from '@ledger/auth';
import {
  CommandAccepted,
  CreateEventSubscriptionCommand,
  CreateEventSubscriptionRequest,
  DEFAULT_PAGE_SIZE,
  DeleteEventSubscriptionCommand,
  EventSubscriptionResponse,
  EventSubscriptionSecretIssued,
  EventSubscriptionSecretResponse,
  EventSubscriptionTokenParam,
  GetEventSubscriptionQuery,
  GetEventSubscriptionSecretQuery,
  GetWebhookMessageQuery,
  ListEventSubscriptionsQuery,
  ListWebhookAttemptsParams,
  ListWebhookAttemptsQuery,
  attemptFilterOf,
  ListWebhookMessagesParams,
  ListWebhookMessagesQuery,
  Page,
  CursorPageParams,
  RecoverEventSubscriptionCommand,
  RedeliveryRangeParams,
  ReplayMissingEventsCommand,
  ResendWebhookMessageCommand,
  RotateEventSubscriptionSecretCommand,
  UpdateEventSubscriptionCommand,
  UpdateEventSubscriptionRequest,
  WebhookAttemptResponse,
  WebhookMessageParams,
  WebhookMessageResponse,
} from '@ledger/contracts';
import { commandOrigin } from '../http/command-origin';
import { pageRequest } from '../http/paging';
import {
  ApiErrors,
  EmptyModel,
  EventSubscriptionCreatedModel,
  EventSubscriptionModel,
  EventSubscriptionPageModel,
  EventSubscriptionSecretModel,
  WebhookAttemptPageModel,
  WebhookMessageModel,
  WebhookMessagePageModel,
} from '../http/openapi-models';
import { RequestWithId } from '../http/request-id';
import { WriteAcknowledger } from '../http/write-acknowledger';

/**
 * Webhooks, which the spec leaves open, shaped like Lithic's event subscriptions (docs/webhooks.md).
 * Every write answers once the read models show it; another program's token answers 404.
 */
@ApiTags('event subscriptions (webhooks)')
@ApiSecurity('api-key')
@ApiErrors(400, 401)
@Controller('v1/event_subscriptions')
@UseGuards(ApiKeyGuard)
export class EventSubscriptionsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly acknowledger: WriteAcknowledger,
  ) {}

  /** The answer carries the signing secret; GET .../secret shows it again. */
  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Subscribe a URL to webhook events; the answer carries the signing secret' })
  @ApiOkResponse({ type: EventSubscriptionCreatedModel })
  async create(
    @CallingProgram() programToken: string,
    @Req() request: RequestWithId,
    @Body() body: CreateEventSubscriptionRequest,
  ): Promise<EventSubscriptionResponse & EventSubscriptionSecretResponse> {
    const issued = await this.commands.execute<CreateEventSubscriptionCommand, EventSubscriptionSecretIssued>(
      new CreateEventSubscriptionCommand(commandOrigin(programToken, request), {
        url: body.url,
        description: body.description,
        eventTypes: body.event_types,
        disabled: body.disabled,
      }),
    );
    await this.acknowledger.visible(issued);
    return { ...(await this.queries.execute(new GetEventSubscriptionQuery(programToken, issued.token))), secret: issued.secret };
  }

  @Get()
  @ApiOperation({ summary: 'List the program\'s event subscriptions' })
  @ApiOkResponse({ type: EventSubscriptionPageModel })
  list(@CallingProgram() programToken: string, @Query() params: CursorPageParams): Promise<Page<EventSubscriptionResponse>> {
    return this.queries.execute(new ListEventSubscriptionsQuery(programToken, pageRequest(params, params.page_size ?? DEFAULT_PAGE_SIZE)));
  }

  @Get(':event_subscription_token')
  @ApiOperation({ summary: 'Get an event subscription' })
  @ApiOkResponse({ type: EventSubscriptionModel })
  @ApiErrors(404)
  get(@CallingProgram() programToken: string, @Param() { event_subscription_token }: EventSubscriptionTokenParam): Promise<EventSubscriptionResponse> {
    return this.queries.execute(new GetEventSubscriptionQuery(programToken, event_subscription_token));
  }

  @Patch(':event_subscription_token')
  @ApiOperation({ summary: 'Update an event subscription; only the fields given change' })
  @ApiOkResponse({ type: EventSubscriptionModel })
  @ApiErrors(404, 409)
  async update(
    @CallingProgram() programToken: string,
    @Req() request: RequestWithId,
    @Param() { event_subscription_token }: EventSubscriptionTokenParam,
    @Body() body: UpdateEventSubscriptionRequest,
  ): Promise<EventSubscriptionResponse> {
    const accepted = await this.commands.execute<UpdateEventSubscriptionCommand, CommandAccepted>(
      new UpdateEventSubscriptionCommand(commandOrigin(programToken, request), event_subscription_token, {
        url: body.url,
        description: body.description,
        eventTypes: body.event_types,
        disabled: body.disabled,
      }),
    );
    await this.acknowledger.visible(accepted);
    return this.queries.execute(new GetEventSubscriptionQuery(programToken, event_subscription_token));
  }

  @Delete(':event_subscription_token')
  @ApiOperation({ summary: 'Delete an event subscription' })
  @ApiOkResponse({ type: EmptyModel })
  @ApiErrors(404, 409)
  async delete(
    @CallingProgram() programToken: string,
    @Req() request: RequestWithId,
    @Param() { event_subscription_token }: EventSubscriptionTokenParam,
  ): Promise<Record<string, never>> {
    const accepted = await this.commands.execute<DeleteEventSubscriptionCommand, CommandAccepted>(
      new DeleteEventSubscriptionCommand(commandOrigin(programToken, request), event_subscription_token),
    );
    await this.acknowledger.visible(accepted);
    return {};
  }

  @Get(':event_subscription_token/secret')
  @ApiOperation({ summary: 'The subscription\'s signing secret' })
  @ApiOkResponse({ type: EventSubscriptionSecretModel })
  @ApiErrors(404)
  secret(@CallingProgram() programToken: string, @Param() { event_subscription_token }: EventSubscriptionTokenParam): Promise<EventSubscriptionSecretResponse> {
    return this.queries.execute(new GetEventSubscriptionSecretQuery(programToken, event_subscription_token));
  }

  /** Deliveries from now on, retries of older messages included, are signed with the new secret. */
  @Post(':event_subscription_token/secret/rotate')
  @HttpCode(200)
  @ApiOperation({ summary: 'Rotate the signing secret' })
  @ApiOkResponse({ type: EventSubscriptionSecretModel })
  @ApiErrors(404, 409)
  async rotate(
    @CallingProgram() programToken: string,
    @Req() request: RequestWithId,
    @Param() { event_subscription_token }: EventSubscriptionTokenParam,
  ): Promise<EventSubscriptionSecretResponse> {
    const issued = await this.commands.execute<RotateEventSubscriptionSecretCommand, EventSubscriptionSecretIssued>(
      new RotateEventSubscriptionSecretCommand(commandOrigin(programToken, request), event_subscription_token),
    );
    await this.acknowledger.visible(issued);
    return { secret: issued.secret };
  }

  @Get(':event_subscription_token/messages')
  @ApiOperation({ summary: 'The subscription\'s webhook messages, newest first' })
  @ApiOkResponse({ type: WebhookMessagePageModel })
  @ApiErrors(404)
  messages(
    @CallingProgram() programToken: string,
    @Param() { event_subscription_token }: EventSubscriptionTokenParam,
    @Query() params: ListWebhookMessagesParams,
  ): Promise<Page<WebhookMessageResponse>> {
    return this.queries.execute(
      new ListWebhookMessagesQuery(programToken, event_subscription_token, params.status, pageRequest(params, params.page_size ?? DEFAULT_PAGE_SIZE)),
    );
  }

  @Get(':event_subscription_token/messages/:message_token')
  @ApiOperation({ summary: 'One webhook message' })
  @ApiOkResponse({ type: WebhookMessageModel })
  @ApiErrors(404)
  message(@CallingProgram() programToken: string, @Param() { event_subscription_token, message_token }: WebhookMessageParams): Promise<WebhookMessageResponse> {
    return this.queries.execute(new GetWebhookMessageQuery(programToken, event_subscription_token, message_token));
  }

  @Get(':event_subscription_token/messages/:message_token/attempts')
  @ApiOperation({ summary: 'The delivery attempts of one message' })
  @ApiOkResponse({ type: WebhookAttemptPageModel })
  @ApiErrors(404)
  messageAttempts(
    @CallingProgram() programToken: string,
    @Param() { event_subscription_token, message_token }: WebhookMessageParams,
    @Query() params: ListWebhookAttemptsParams,
  ): Promise<Page<WebhookAttemptResponse>> {
    return this.queries.execute(
      new ListWebhookAttemptsQuery(programToken, event_subscription_token, message_token, pageRequest(params, params.page_size ?? DEFAULT_PAGE_SIZE), attemptFilterOf(params)),
    );
  }

  /** Due again at once, with the whole retry schedule ahead; answers the message as it now stands. */
  @Post(':event_subscription_token/messages/:message_token/resend')
  @HttpCode(200)
  @ApiOperation({ summary: 'Deliver a message again, with the whole retry schedule ahead' })
  @ApiOkResponse({ type: WebhookMessageModel })
  @ApiErrors(404, 409)
  async resend(@CallingProgram() programToken: string, @Param() { event_subscription_token, message_token }: WebhookMessageParams): Promise<WebhookMessageResponse> {
    await this.commands.execute(new ResendWebhookMessageCommand(programToken, event_subscription_token, message_token));
    return this.queries.execute(new GetWebhookMessageQuery(programToken, event_subscription_token, message_token));
  }

  /** Lithic's recover: failed messages created in [begin, end) are due again at once, with the whole retry schedule ahead. */
  @Post(':event_subscription_token/recover')
  @HttpCode(200)
  @ApiOperation({ summary: 'Deliver again every failed message created in [begin, end)' })
  @ApiOkResponse({ type: EmptyModel })
  @ApiErrors(404)
  async recover(
    @CallingProgram() programToken: string,
    @Param() { event_subscription_token }: EventSubscriptionTokenParam,
    @Query() range: RedeliveryRangeParams,
  ): Promise<Record<string, never>> {
    await this.commands.execute(new RecoverEventSubscriptionCommand(programToken, event_subscription_token, { begin: range.begin, end: range.end }));
    return {};
  }

  /** Lithic's replay_missing: events created in [begin, end) the subscription wants and never got are sent now. */
  @Post(':event_subscription_token/replay_missing')
  @HttpCode(200)
  @ApiOperation({ summary: 'Send the events created in [begin, end) that the subscription wants and never got a message for' })
  @ApiOkResponse({ type: EmptyModel })
  @ApiErrors(404)
  async replayMissing(
    @CallingProgram() programToken: string,
    @Param() { event_subscription_token }: EventSubscriptionTokenParam,
    @Query() range: RedeliveryRangeParams,
  ): Promise<Record<string, never>> {
    await this.commands.execute(new ReplayMissingEventsCommand(programToken, event_subscription_token, { begin: range.begin, end: range.end }));
    return {};
  }

  /** The delivery log of every message of the subscription, newest first. */
  @Get(':event_subscription_token/attempts')
  @ApiOperation({ summary: 'The delivery log of every message of the subscription, newest first' })
  @ApiOkResponse({ type: WebhookAttemptPageModel })
  @ApiErrors(404)
  attempts(
    @CallingProgram() programToken: string,
    @Param() { event_subscription_token }: EventSubscriptionTokenParam,
    @Query() params: ListWebhookAttemptsParams,
  ): Promise<Page<WebhookAttemptResponse>> {
    return this.queries.execute(
      new ListWebhookAttemptsQuery(programToken, event_subscription_token, undefined, pageRequest(params, params.page_size ?? DEFAULT_PAGE_SIZE), attemptFilterOf(params)),
    );
  }
}
