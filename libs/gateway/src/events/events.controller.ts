import { Get, Headers, Logger, Param, Query, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiProduces } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CallingProgram } from '@ledger/auth';
import { ANY_UUID, attemptFilterOf, EmptyModel, EventPageModel, EventResponse, EventStreamParams, EventSubscriptionEventParams, EventTokenParam, ListEventAttemptsQuery, ListEventsParams, ListWebhookAttemptsParams, Page, ResendWebhookMessageCommand, WebhookAttemptPageModel, WebhookAttemptResponse, webhookMessageId } from '@ledger/contracts';
import { NotFound } from '@ledger/domain';
import { ProgramApi, Route } from '../http/api-routes';
import { pageRequest } from '../listing/paging';
import { RequestInvalid } from '../http/errors';
import { FeedEvents, positionOf, presentEvent } from './feed-events';
import { LiveEventStreams } from './live-event-streams';

/** Lithic's events: what the ledger's webhooks carry, for every program, subscribed or not (docs/webhooks.md). */
@ProgramApi('events', 'v1/events')
export class EventsController {
  private readonly logger = new Logger(EventsController.name);

  constructor(
    private readonly feed: FeedEvents,
    private readonly streams: LiveEventStreams,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  /**
   * Server-Sent Events: each event as `id:` its token, `event:` its type, `data:` the Event object of
   * GET /v1/events/{token}. Without Last-Event-ID it starts with the next event; with it, every event
   * after that one first. Heartbeat comments keep proxies from closing a quiet stream.
   */
  @Get('stream')
  @ApiOperation({
    summary: "The program's events, live, as Server-Sent Events; resumable with Last-Event-ID",
    description:
      'Header `Last-Event-ID` (optional): the token of the last event received; the stream first sends every event of the program after it, then live ones. ' +
      'Without it the stream starts with the next event. Each message: `id` the event token, `event` its type, `data` the Event object of GET /v1/events/{event_token}.',
  })
  @ApiProduces('text/event-stream')
  @ApiOkResponse({ description: 'An endless text/event-stream', content: { 'text/event-stream': { schema: { type: 'string' } } } })
  async stream(
    @CallingProgram() programToken: string,
    @Query() query: EventStreamParams,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() reply: FastifyReply,
    @Req() request: FastifyRequest,
  ): Promise<void> {
    const after = lastEventId === undefined ? await this.feed.livePosition() : await this.resumePoint(programToken, lastEventId);
    // From here the route writes Node's own response itself; an error before this point gets the
    // usual body. Fastify is told to stand back (hijack), so it neither sends nor closes it.
    reply.hijack();
    const response = reply.raw;
    try {
      await this.streams.serve({ programToken, after, eventTypes: query.event_types }, response);
    } catch (error) {
      // The answer has begun, so no error body can follow: the client sees the stream end and resumes.
      this.logger.error({ request_id: request.id, msg: `event stream of program ${programToken} ended by an error: ${String(error)}` });
      if (!response.writableEnded) response.end();
    }
  }

  @Route('GET', '', { summary: "List the program's events, newest first: event_types, begin/end, cursor or page paging", answers: EventPageModel })
  list(@CallingProgram() programToken: string, @Query() params: ListEventsParams): Promise<Page<EventResponse>> {
    return this.feed.list(programToken, { eventTypes: params.event_types, begin: params.begin, end: params.end }, pageRequest(params));
  }

  /** Every attempt to deliver the event, to any subscription of the program, newest first (Lithic's events.listAttempts). */
  @Route('GET', ':event_token/attempts', {
    summary: "The delivery attempts of an event, across the program's subscriptions, newest first",
    answers: WebhookAttemptPageModel,
    errors: [404],
  })
  async attempts(@CallingProgram() programToken: string, @Param() { event_token }: EventTokenParam, @Query() params: ListWebhookAttemptsParams): Promise<Page<WebhookAttemptResponse>> {
    if (!(await this.feed.event(programToken, event_token))) throw new NotFound(`Event ${event_token} not found`, 'event_token');
    return this.queries.execute(new ListEventAttemptsQuery(programToken, event_token, pageRequest(params), attemptFilterOf(params)));
  }

  /** Declared after `stream`, so that path is never read as a token. */
  @Route('GET', ':event_token', { summary: 'Get an event', answers: EventResponse, errors: [404] })
  async get(@CallingProgram() programToken: string, @Param() { event_token }: EventTokenParam): Promise<EventResponse> {
    const row = await this.feed.event(programToken, event_token);
    if (!row) throw new NotFound(`Event ${event_token} not found`, 'event_token');
    return presentEvent(row);
  }

  /**
   * Lithic's resend of an event to a subscription: the message that carries the event to it (its id
   * derives from both) is due again at once, as POST .../messages/{message_token}/resend makes it.
   */
  @Route('POST', ':event_token/event_subscriptions/:event_subscription_token/resend', {
    summary: "Deliver an event's message to a subscription again",
    answers: EmptyModel,
    errors: [404],
  })
  async resend(@CallingProgram() programToken: string, @Param() { event_token, event_subscription_token }: EventSubscriptionEventParams): Promise<Record<string, never>> {
    await this.commands.execute(new ResendWebhookMessageCommand(programToken, event_subscription_token, webhookMessageId(event_token, event_subscription_token)));
    return {};
  }

  private async resumePoint(programToken: string, lastEventId: string) {
    const event = ANY_UUID.test(lastEventId) ? await this.feed.event(programToken, lastEventId) : null;
    if (!event) throw new RequestInvalid('Last-Event-ID must be the token of an event of this program');
    return positionOf(event);
  }
}
