import { Body, Param, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { CallingProgram } from '@ledger/auth';
import { attemptFilterOf, CommandAccepted, CommandOrigin, CreateEventSubscriptionCommand, CreateEventSubscriptionRequest, CursorPageParams, DeleteEventSubscriptionCommand, EmptyModel, EventSubscriptionCreatedModel, EventSubscriptionPageModel, EventSubscriptionResponse, EventSubscriptionSecretIssued, EventSubscriptionSecretResponse, EventSubscriptionTokenParam, GetEventSubscriptionQuery, GetEventSubscriptionSecretQuery, GetWebhookMessageQuery, ListEventSubscriptionsQuery, ListWebhookAttemptsParams, ListWebhookAttemptsQuery, ListWebhookMessagesParams, ListWebhookMessagesQuery, Page, RecoverEventSubscriptionCommand, RedeliveryRangeParams, ReplayMissingEventsCommand, ResendWebhookMessageCommand, RotateEventSubscriptionSecretCommand, UpdateEventSubscriptionCommand, UpdateEventSubscriptionRequest, WebhookAttemptPageModel, WebhookAttemptResponse, WebhookMessagePageModel, WebhookMessageParams, WebhookMessageResponse } from '@ledger/contracts';
import { ProgramApi, Route } from '../http/api-routes';
import { CallerOrigin } from '../http/command-origin';
import { pageRequest } from '../listing/paging';
import { WriteAcknowledger } from '../http/write-acknowledger';

/**
 * Webhooks, which the spec leaves open, shaped like Lithic's event subscriptions (docs/webhooks.md).
 * Every write answers once the read models show it; another program's token answers 404.
 */
@ProgramApi('event subscriptions (webhooks)', 'v1/event_subscriptions')
export class EventSubscriptionsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly acknowledger: WriteAcknowledger,
  ) {}

  /** The answer carries the signing secret; GET .../secret shows it again. */
  @Route('POST', '', { summary: 'Subscribe a URL to webhook events; the answer carries the signing secret', answers: EventSubscriptionCreatedModel })
  async create(@CallerOrigin() origin: CommandOrigin, @Body() body: CreateEventSubscriptionRequest): Promise<EventSubscriptionResponse & EventSubscriptionSecretResponse> {
    const issued = await this.commands.execute<CreateEventSubscriptionCommand, EventSubscriptionSecretIssued>(
      new CreateEventSubscriptionCommand(origin, {
        url: body.url,
        description: body.description,
        eventTypes: body.event_types,
        disabled: body.disabled,
      }),
    );
    const subscription = await this.acknowledger.answer(issued, () => this.subscription(origin, issued.token));
    return { ...subscription, secret: issued.secret };
  }

  @Route('GET', '', { summary: 'List the program\'s event subscriptions', answers: EventSubscriptionPageModel })
  list(@CallingProgram() programToken: string, @Query() params: CursorPageParams): Promise<Page<EventSubscriptionResponse>> {
    return this.queries.execute(new ListEventSubscriptionsQuery(programToken, pageRequest(params)));
  }

  @Route('GET', ':event_subscription_token', { summary: 'Get an event subscription', answers: EventSubscriptionResponse, errors: [404] })
  get(@CallingProgram() programToken: string, @Param() { event_subscription_token }: EventSubscriptionTokenParam): Promise<EventSubscriptionResponse> {
    return this.queries.execute(new GetEventSubscriptionQuery(programToken, event_subscription_token));
  }

  @Route('PATCH', ':event_subscription_token', { summary: 'Update an event subscription; only the fields given change', answers: EventSubscriptionResponse, errors: [404, 409] })
  async update(
    @CallerOrigin() origin: CommandOrigin,
    @Param() { event_subscription_token }: EventSubscriptionTokenParam,
    @Body() body: UpdateEventSubscriptionRequest,
  ): Promise<EventSubscriptionResponse> {
    const accepted = await this.commands.execute<UpdateEventSubscriptionCommand, CommandAccepted>(
      new UpdateEventSubscriptionCommand(origin, event_subscription_token, {
        url: body.url,
        description: body.description,
        eventTypes: body.event_types,
        disabled: body.disabled,
      }),
    );
    return this.acknowledger.answer(accepted, () => this.subscription(origin, event_subscription_token));
  }

  @Route('DELETE', ':event_subscription_token', { summary: 'Delete an event subscription', answers: EmptyModel, errors: [404, 409] })
  async delete(@CallerOrigin() origin: CommandOrigin, @Param() { event_subscription_token }: EventSubscriptionTokenParam): Promise<Record<string, never>> {
    const accepted = await this.commands.execute<DeleteEventSubscriptionCommand, CommandAccepted>(new DeleteEventSubscriptionCommand(origin, event_subscription_token));
    await this.acknowledger.visible(accepted);
    return {};
  }

  @Route('GET', ':event_subscription_token/secret', { summary: 'The subscription\'s signing secret', answers: EventSubscriptionSecretResponse, errors: [404] })
  secret(@CallingProgram() programToken: string, @Param() { event_subscription_token }: EventSubscriptionTokenParam): Promise<EventSubscriptionSecretResponse> {
    return this.queries.execute(new GetEventSubscriptionSecretQuery(programToken, event_subscription_token));
  }

  /** Deliveries from now on, retries of older messages included, are signed with the new secret. */
  @Route('POST', ':event_subscription_token/secret/rotate', { summary: 'Rotate the signing secret', answers: EventSubscriptionSecretResponse, errors: [404, 409] })
  async rotate(@CallerOrigin() origin: CommandOrigin, @Param() { event_subscription_token }: EventSubscriptionTokenParam): Promise<EventSubscriptionSecretResponse> {
    const issued = await this.commands.execute<RotateEventSubscriptionSecretCommand, EventSubscriptionSecretIssued>(
      new RotateEventSubscriptionSecretCommand(origin, event_subscription_token),
    );
    await this.acknowledger.visible(issued);
    return { secret: issued.secret };
  }

  @Route('GET', ':event_subscription_token/messages', { summary: 'The subscription\'s webhook messages, newest first', answers: WebhookMessagePageModel, errors: [404] })
  messages(
    @CallingProgram() programToken: string,
    @Param() { event_subscription_token }: EventSubscriptionTokenParam,
    @Query() params: ListWebhookMessagesParams,
  ): Promise<Page<WebhookMessageResponse>> {
    return this.queries.execute(
      new ListWebhookMessagesQuery(programToken, event_subscription_token, params.status, pageRequest(params)),
    );
  }

  @Route('GET', ':event_subscription_token/messages/:message_token', { summary: 'One webhook message', answers: WebhookMessageResponse, errors: [404] })
  message(@CallingProgram() programToken: string, @Param() { event_subscription_token, message_token }: WebhookMessageParams): Promise<WebhookMessageResponse> {
    return this.queries.execute(new GetWebhookMessageQuery(programToken, event_subscription_token, message_token));
  }

  @Route('GET', ':event_subscription_token/messages/:message_token/attempts', { summary: 'The delivery attempts of one message', answers: WebhookAttemptPageModel, errors: [404] })
  messageAttempts(
    @CallingProgram() programToken: string,
    @Param() { event_subscription_token, message_token }: WebhookMessageParams,
    @Query() params: ListWebhookAttemptsParams,
  ): Promise<Page<WebhookAttemptResponse>> {
    return this.queries.execute(
      new ListWebhookAttemptsQuery(programToken, event_subscription_token, message_token, pageRequest(params), attemptFilterOf(params)),
    );
  }

  /** Due again at once, with the whole retry schedule ahead; answers the message as it now stands. */
  @Route('POST', ':event_subscription_token/messages/:message_token/resend', {
    summary: 'Deliver a message again, with the whole retry schedule ahead',
    answers: WebhookMessageResponse,
    errors: [404, 409],
  })
  async resend(@CallingProgram() programToken: string, @Param() { event_subscription_token, message_token }: WebhookMessageParams): Promise<WebhookMessageResponse> {
    await this.commands.execute(new ResendWebhookMessageCommand(programToken, event_subscription_token, message_token));
    return this.queries.execute(new GetWebhookMessageQuery(programToken, event_subscription_token, message_token));
  }

  /** Lithic's recover: failed messages created in [begin, end) are due again at once, with the whole retry schedule ahead. */
  @Route('POST', ':event_subscription_token/recover', { summary: 'Deliver again every failed message created in [begin, end)', answers: EmptyModel, errors: [404] })
  async recover(
    @CallingProgram() programToken: string,
    @Param() { event_subscription_token }: EventSubscriptionTokenParam,
    @Query() range: RedeliveryRangeParams,
  ): Promise<Record<string, never>> {
    await this.commands.execute(new RecoverEventSubscriptionCommand(programToken, event_subscription_token, { begin: range.begin, end: range.end }));
    return {};
  }

  /** Lithic's replay_missing: events created in [begin, end) the subscription wants and never got are sent now. */
  @Route('POST', ':event_subscription_token/replay_missing', {
    summary: 'Send the events created in [begin, end) that the subscription wants and never got a message for',
    answers: EmptyModel,
    errors: [404],
  })
  async replayMissing(
    @CallingProgram() programToken: string,
    @Param() { event_subscription_token }: EventSubscriptionTokenParam,
    @Query() range: RedeliveryRangeParams,
  ): Promise<Record<string, never>> {
    await this.commands.execute(new ReplayMissingEventsCommand(programToken, event_subscription_token, { begin: range.begin, end: range.end }));
    return {};
  }

  /** The delivery log of every message of the subscription, newest first. */
  @Route('GET', ':event_subscription_token/attempts', {
    summary: 'The delivery log of every message of the subscription, newest first',
    answers: WebhookAttemptPageModel,
    errors: [404],
  })
  attempts(
    @CallingProgram() programToken: string,
    @Param() { event_subscription_token }: EventSubscriptionTokenParam,
    @Query() params: ListWebhookAttemptsParams,
  ): Promise<Page<WebhookAttemptResponse>> {
    return this.queries.execute(
      new ListWebhookAttemptsQuery(programToken, event_subscription_token, undefined, pageRequest(params), attemptFilterOf(params)),
    );
  }

  private subscription({ programToken }: CommandOrigin, subscriptionToken: string): Promise<EventSubscriptionResponse> {
    return this.queries.execute(new GetEventSubscriptionQuery(programToken, subscriptionToken));
  }
}
