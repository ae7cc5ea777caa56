import { Inject, Injectable } from '@nestjs/common';
import { type CardEvent, type CardHistory, cardStreamId } from '@ledger/domain';
import type { EventCodec, EventStore } from '@ledger/event-store';
import type { ReadModelClient } from '@ledger/read-model';
import { EVENT_STORE, LEDGER_CONFIG, LedgerConfig, ProjectionWatcher, READ_MODEL } from '@ledger/runtime';

/**
 * Every card stream of a program, each whole and in order: the history a backtest replays. The cards
 * read model is used only as the index of which cards the program has (a card is the program's for
 * good once created), after it shows everything committed before the read; every fact replayed comes
 * from the card streams themselves. No stream lists a program's cards, and scanning the whole log for
 * them would cost every program's history.
 */
@Injectable()
export class ProgramCardHistories {
  constructor(
    @Inject(READ_MODEL) private readonly readModel: ReadModelClient,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly watcher: ProjectionWatcher,
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
  ) {}

  /** `only`: the cards to read, when not every card of the program (cardsToReplay); another program's are never read. */
  async of(programToken: string, codec: EventCodec<unknown>, only: readonly string[] | null): Promise<CardHistory[]> {
    const head = await this.store.headPosition();
    if (head) await this.watcher.waitFor(head, this.config.readYourWritesTimeoutMs);
    const where = only === null ? { programToken } : { programToken, token: { in: [...only] } };
    const cards = await this.readModel.card.findMany({ where, select: { token: true }, orderBy: { token: 'asc' } });
    const histories: CardHistory[] = [];
    // One card at a time: a program's cards can be many, and each read holds its whole stream.
    for (const { token } of cards) histories.push((await this.store.readStream(cardStreamId(token))).map((event) => codec.decode(event) as CardEvent));
    return histories;
  }
}

/** What a backtest needs of ProgramCardHistories: the program's card histories, as `of` answers them. */
export type CardHistorySource = Pick<ProgramCardHistories, 'of'>;
