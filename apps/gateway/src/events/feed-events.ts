import { Inject, Injectable } from '@nestjs/common';
import type { WebhookEventType } from '@ledger/domain';
import type { GlobalPosition } from '@ledger/event-store';
import type { ReadModelClient } from '@ledger/read-model';
import { READ_MODEL, READ_MODEL_PROJECTOR } from '@ledger/runtime';

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
