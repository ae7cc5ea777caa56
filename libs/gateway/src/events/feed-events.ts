import { Inject, Injectable } from '@nestjs/common';
import type { WebhookEventType } from '@ledger/domain';
import type { EventResponse, Page, PageRequest } from '@ledger/contracts';
import type { GlobalPosition } from '@ledger/event-store';
import type { ReadModelClient } from '@ledger/read-model';
import { READ_MODEL, READ_MODEL_PROJECTOR } from '@ledger/runtime';
import { createdBetween, tablePage, type ListOrder } from '../listing/paging';

/** One row of the events feed, as the API serves it. */
export interface FeedEventRow {
  readonly token: string;
  readonly eventType: string;
  readonly created: Date;
  readonly commitPosition: bigint;
  readonly preparePosition: bigint;
  /** The exact JSON text of the payload. */
  readonly payload: string;
}

/**
 * The Event object's JSON, written around the stored payload text rather than parsed and written
 * again: GET /v1/events/{token} and the stream's `data:` lines carry exactly these bytes.
 */
export function eventJson(row: FeedEventRow): string {
  return `{"token":${JSON.stringify(row.token)},"event_type":${JSON.stringify(row.eventType)},"created":${JSON.stringify(row.created.toISOString())},"payload":${row.payload}}`;
}

export function positionOf(row: Pick<FeedEventRow, 'commitPosition' | 'preparePosition'>): GlobalPosition {
  return { commit: row.commitPosition, prepare: row.preparePosition };
}

/** Events lists run newest first, as webhook messages do. */
export const NEWEST_FIRST = { at: 'created', tie: 'token', direction: 'desc' } as const satisfies ListOrder<'created', 'token'>;

export interface EventFilter {
  readonly eventTypes?: readonly WebhookEventType[];
  /** Created at or after (inclusive). */
  readonly begin?: Date;
  /** Created before (exclusive). */
  readonly end?: Date;
}

/** The Event object of a row. */
export function presentEvent(row: FeedEventRow): EventResponse {
  return JSON.parse(eventJson(row)) as EventResponse;
}

/** Reads a program's events feed (`feed_events`); every question names the program, so none sees another's. */
@Injectable()
export class FeedEvents {
  constructor(@Inject(READ_MODEL) private readonly readModel: ReadModelClient) {}

  /** The program's events after a position (from the start when null), in feed order. */
  async after(programToken: string, position: GlobalPosition | null, eventTypes: readonly WebhookEventType[] | undefined, take: number): Promise<FeedEventRow[]> {
    return this.readModel.feedEvent.findMany({
      where: {
        programToken,
        ...(eventTypes ? { eventType: { in: [...eventTypes] } } : {}),
        ...(position
          ? { OR: [{ commitPosition: { gt: position.commit } }, { commitPosition: position.commit, preparePosition: { gt: position.prepare } }] }
          : {}),
      },
      orderBy: [{ commitPosition: 'asc' }, { preparePosition: 'asc' }],
      take,
    });
  }

  /** GET /v1/events: a page of the program's events, newest first, in either paging style. */
  async list(programToken: string, filter: EventFilter, paging: PageRequest): Promise<Page<EventResponse>> {
    const where = {
      programToken,
      ...(filter.eventTypes ? { eventType: { in: [...filter.eventTypes] } } : {}),
      ...(filter.begin || filter.end ? { created: createdBetween({ createdFrom: filter.begin, createdBefore: filter.end }) } : {}),
    };
    return tablePage(paging, this.readModel.feedEvent, {
      order: NEWEST_FIRST,
      noun: 'event',
      where,
      scope: { programToken },
      present: async (rows) => rows.map(presentEvent),
    });
  }

  /** One event of the program, or null (another program's event is as unknown as a made-up token). */
  async event(programToken: string, token: string): Promise<FeedEventRow | null> {
    return this.readModel.feedEvent.findFirst({ where: { token, programToken } });
  }

  /**
   * Where a stream without Last-Event-ID starts: after everything the read models include, which is
   * everything the API has acknowledged so far. The feed may still be writing some of those events;
   * starting after its own last row would send them to a client that connected after their writes.
   */
  async livePosition(): Promise<GlobalPosition | null> {
    const rows = await this.readModel.$queryRawUnsafe<{ commit: string; prepare: string }[]>(
      'select commit_position::text as commit, prepare_position::text as prepare from projector_checkpoints where name = $1',
      READ_MODEL_PROJECTOR,
    );
    return rows[0] ? { commit: BigInt(rows[0].commit), prepare: BigInt(rows[0].prepare) } : null;
  }
}
