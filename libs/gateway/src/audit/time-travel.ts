import { Inject, Injectable } from '@nestjs/common';
import { CardResponse, ledgerCodec, Page, PageRequest, TransactionResponse } from '@ledger/contracts';
import {
  Card,
  CardEvent,
  cardDecider,
  CardNotFound,
  cardStreamId,
  Decider,
  ExistingTransaction,
  Program,
  programDecider,
  ProgramEvent,
  programStreamId,
  Transaction,
  transactionDecider,
  TransactionEvent,
  transactionStreamId,
} from '@ledger/domain';
import { EventStore, RecordedEvent } from '@ledger/event-store';
import { cardRow, fundingSourceRow, presentTransaction, ReadModelClient, transactionRow } from '@ledger/read-model';
import { EVENT_STORE, READ_MODEL } from '@ledger/runtime';
import { CardPresenter } from '../cards/card-presenter';
import { createdBetween, inMemoryPage } from '../listing/paging';

/** A transaction that existed by the moment asked about, and when its last event by then occurred. */
interface FoldedTransaction {
  readonly state: ExistingTransaction;
  readonly lastOccurredAt: Date;
}

export interface AsOfFilter {
  readonly cardToken?: string;
  readonly result?: 'APPROVED' | 'DECLINED';
  readonly status?: string;
  readonly createdFrom?: Date;
  readonly createdBefore?: Date;
}

/**
 * Time travel: state as it was at a moment, computed from the events alone (those that occurred at
 * or before it), never from the read models' current rows. The read model only says which
 * transactions exist, since a transaction's creation time never changes.
 */
@Injectable()
export class TimeTravel {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_MODEL) private readonly readModel: ReadModelClient,
    private readonly cards: CardPresenter,
  ) {}

  async card(programToken: string, cardToken: string, asOf: Date): Promise<CardResponse> {
    const [card, program] = await Promise.all([this.cardAt(cardToken, asOf), this.programAt(programToken, asOf)]);
    if (card.status !== 'issued' || card.programToken !== programToken) throw new CardNotFound(cardToken);
    return this.presentCard(card, program, asOf);
  }

  async transactionPage(programToken: string, filter: AsOfFilter, paging: PageRequest, asOf: Date): Promise<Page<TransactionResponse>> {
    const candidates = await this.readModel.transaction.findMany({
      where: { programToken, ...(filter.cardToken ? { cardToken: filter.cardToken } : {}), created: { ...createdBetween(filter), lte: asOf } },
      select: { token: true },
      orderBy: [{ created: 'asc' }, { token: 'asc' }],
    });
    const folded = await Promise.all(candidates.map(({ token }) => this.foldWithTime(transactionStreamId(token), transactionDecider, asOf)));
    const shown = folded.filter(
      (entry): entry is FoldedTransaction =>
        entry.state.status !== 'ABSENT' &&
        entry.lastOccurredAt !== null &&
        (filter.result === undefined || (filter.result === 'APPROVED') === (entry.state.result === 'APPROVED')) &&
        (filter.status === undefined || entry.state.status === filter.status),
    );
    return inMemoryPage(paging, shown, ({ state }) => state.transactionToken, 'transaction', (page) => this.presentTransactions(programToken, page, asOf));
  }

  private async presentTransactions(programToken: string, shown: FoldedTransaction[], asOf: Date): Promise<TransactionResponse[]> {
    const program = await this.programAt(programToken, asOf);
    const cards = new Map<string, CardResponse>();
    for (const token of new Set(shown.map(({ state }) => state.cardToken))) {
      const card = await this.cardAt(token, asOf);
      if (card.status === 'issued') cards.set(token, this.presentCard(card, program, asOf));
    }
    return shown.map(({ state, lastOccurredAt }) => {
      const card = cards.get(state.cardToken);
      if (!card) throw new Error(`Transaction ${state.transactionToken} names card ${state.cardToken}, which had no events by then`);
      const fundingType = program.status === 'active' ? program.fundingSources.find((s) => s.fundingToken === state.fundingToken)?.type : undefined;
      // `updated` is when its last event by then occurred, as the read model's row showed it then, not the moment asked about.
      return presentTransaction({ ...transactionRow(state, 0, lastOccurredAt), acquirerFee: 0n }, card, fundingType ?? card.funding.type);
    });
  }

  private presentCard(card: Extract<Card, { status: 'issued' }>, program: Program, asOf: Date): CardResponse {
    const source = program.status === 'active' ? program.fundingSources.find((s) => s.fundingToken === card.fundingToken) : undefined;
    if (!source || program.status !== 'active') throw new Error(`Card ${card.cardToken} names funding source ${card.fundingToken}, unknown by then`);
    return this.cards.card(cardRow(card, asOf), fundingSourceRow(program.programToken, source, program.defaultFundingToken === source.fundingToken));
  }

  private cardAt(cardToken: string, asOf: Date): Promise<Card> {
    return this.fold(cardStreamId(cardToken), cardDecider, asOf);
  }

  private programAt(programToken: string, asOf: Date): Promise<Program> {
    return this.fold(programStreamId(programToken), programDecider, asOf);
  }

  private async fold<Event extends CardEvent | ProgramEvent | TransactionEvent, State extends Card | Program | Transaction>(
    streamId: string,
    decider: Pick<Decider<never, Event, State, never>, 'initialState' | 'evolve'>,
    asOf: Date,
  ): Promise<State> {
    return (await this.foldWithTime(streamId, decider, asOf)).state;
  }

  /** The stream's state from the events that occurred by `asOf`, and when the last of them occurred (null: none). */
  private async foldWithTime<Event extends CardEvent | ProgramEvent | TransactionEvent, State extends Card | Program | Transaction>(
    streamId: string,
    decider: Pick<Decider<never, Event, State, never>, 'initialState' | 'evolve'>,
    asOf: Date,
  ): Promise<{ state: State; lastOccurredAt: Date | null }> {
    const codec = ledgerCodec<Event>();
    const events = (await this.store.readStream(streamId)).filter((event: RecordedEvent) => Date.parse(event.metadata.occurredAt) <= asOf.getTime());
    const state = events.map((event) => codec.decode(event)).reduce(decider.evolve, decider.initialState());
    return { state, lastOccurredAt: events.length > 0 ? new Date(events[events.length - 1].metadata.occurredAt) : null };
  }
}
