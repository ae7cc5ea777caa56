import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { AuthorizeSpend, Card, cardDecider, CardEvent, SpendLimitDuration } from '@ledger/domain';
import type { TargetRow } from './report';

/**
 * Issue 24 (long histories): does a card with a long history decide as fast as a new one? Measured in
 * process on the pure domain, the way the card service handles an authorization on a folded card:
 * decide on the fold, then evolve the fold with what was decided. No database and no HTTP, so the
 * figure is the fold's own cost and not the machine's I/O.
 */
export interface LongHistoryFigures {
  /** Approvals folded into the long card (with its adjustments and returns besides). */
  readonly transactions: number;
  /** Events folded into the long card, approvals, adjustments and returns. */
  readonly events: number;
  /** Time to fold the long card's events, one by one. */
  readonly foldMs: number;
  /** Heap held by the long card's fold: heap used after it was built less before, after a full GC each time. */
  readonly longCardHeapBytes: number;
  /**
   * Spend entries the long card's fold keeps (one per transaction and return it counts): with the
   * heap it holds, what the fold retains per transaction of the card's life.
   */
  readonly entriesKept: number;
  /** Heap used by the whole process once the long card is folded. */
  readonly heapUsedBytes: number;
  /** Authorizations decided per card and duration in each timed round. */
  readonly decisionsPerRound: number;
  readonly byDuration: readonly DurationFigures[];
}

export interface DurationFigures {
  readonly duration: SpendLimitDuration;
  /** Decide + evolve per second of CPU time on a card with no history, in its fastest round. */
  readonly newCardPerSecond: number;
  /** Decide + evolve per second of CPU time on the long card, in its fastest round. */
  readonly longCardPerSecond: number;
}

export interface LongHistoryOptions {
  readonly transactions?: number;
  readonly decisionsPerRound?: number;
  /**
   * Timed rounds per card and duration, new and long card alternating. The fastest round of each
   * counts: on a machine shared with other work it is the one least disturbed, for both cards alike.
   */
  readonly rounds?: number;
}

const DURATIONS: readonly SpendLimitDuration[] = ['TRANSACTION', 'DAILY', 'MONTHLY', 'ANNUALLY', 'FOREVER'];
const CARD_TOKEN = '5b0c3a52-6a43-4c0e-9a34-0f1c2d3e4f50';
const PROGRAM_TOKEN = 'a1b2c3d4-0000-4000-8000-00000000b3c4';
/** High enough that every measured authorization is approved, so each one is also folded as an approval. */
const SPEND_LIMIT = 1_000_000_000_000;
/** The long history starts here and has an approval every 7 minutes: 100,000 of them span 16 months, past a year boundary. */
const HISTORY_START = Date.UTC(2025, 0, 1);
const APPROVAL_EVERY_MS = 7 * 60_000;
const MERCHANT = { acceptorId: '174030075991', city: 'NEW YORK', country: 'USA', descriptor: 'COFFEE SHOP', mcc: '5812', state: 'NY' };

export async function longHistoryFigures(options: LongHistoryOptions = {}): Promise<LongHistoryFigures> {
  const transactions = options.transactions ?? 100_000;
  const decisionsPerRound = options.decisionsPerRound ?? 500;
  const rounds = options.rounds ?? 200;
  const gc = fullGc();

  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const history = longHistory(transactions);
  const events = history.length;
  const foldStarted = performance.now();
  const long = history.reduce(cardDecider.evolve, cardDecider.initialState());
  const foldMs = performance.now() - foldStarted;
  // The service decodes events, folds them and lets them go: what stays is the fold alone.
  history.length = 0;
  gc();
  const heapUsedBytes = process.memoryUsage().heapUsed;
  const longCardHeapBytes = heapUsedBytes - heapBefore;
  const entriesKept = long.status === 'issued' ? long.spend.size : 0;

  const fresh = cardDecider.evolve(cardDecider.initialState(), created());
  const decidedFrom = HISTORY_START + (transactions + 1) * APPROVAL_EVERY_MS;
  const byDuration: DurationFigures[] = [];
  for (const duration of DURATIONS) {
    const newCard = withDuration(fresh, duration);
    const longCard = withDuration(long, duration);
    const commands = authorizations(decisionsPerRound, duration);
    // Untimed rounds first, so both are timed on optimised code.
    for (let round = 0; round < WARM_UP_ROUNDS; round++) {
      decideEach(newCard, commands, decidedFrom);
      decideEach(longCard, commands, decidedFrom);
    }
    const newCardRates: number[] = [];
    const longCardRates: number[] = [];
    for (let round = 0; round < rounds; round++) {
      // Each goes first every other round, so neither always runs on the other's garbage.
      if (round % 2 === 0) newCardRates.push(decideEach(newCard, commands, decidedFrom));
      longCardRates.push(decideEach(longCard, commands, decidedFrom));
      if (round % 2 === 1) newCardRates.push(decideEach(newCard, commands, decidedFrom));
      // Lets the rest of the process (a bench's timers, its log) run between rounds.
      await new Promise((resolve) => setImmediate(resolve));
    }
    byDuration.push({ duration, newCardPerSecond: Math.round(Math.max(...newCardRates)), longCardPerSecond: Math.round(Math.max(...longCardRates)) });
  }
  return { transactions, events, foldMs: Math.round(foldMs), longCardHeapBytes, entriesKept, heapUsedBytes, decisionsPerRound, byDuration };
}

/** The target: the long card decides at 90% of a new card's rate or better, in every duration. */
export function longHistoryTargets(figures: LongHistoryFigures): TargetRow[] {
  const pct = (value: number) => `${Math.round(value * 100)}%`;
  const ratios = figures.byDuration.map((row) => ({ ...row, ratio: row.longCardPerSecond / Math.max(1, row.newCardPerSecond) }));
  const worst = ratios.reduce((a, b) => (b.ratio < a.ratio ? b : a));
  const mib = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MiB`;
  return [
    {
      figure: `one card with ${figures.transactions.toLocaleString('en-US')} transactions vs a new card`,
      measured:
        ratios.map((row) => `${row.duration} ${row.longCardPerSecond}/${row.newCardPerSecond} = ${pct(row.ratio)}`).join(', ') +
        ` (decide + evolve/s; the long card's fold holds ${mib(figures.longCardHeapBytes)}: ${figures.entriesKept.toLocaleString('en-US')} spend entries kept,` +
        ` ${Math.round(figures.longCardHeapBytes / Math.max(1, figures.entriesKept))} bytes each)`,
      target: '>= 90%',
      met: worst.ratio >= 0.9,
    },
  ];
}

/**
 * Decides each authorization on the card and folds what was decided into it before the next, as the
 * card service does with the fold it keeps; returns decisions/s. Each round starts again from the
 * given card, so the long card stays long and the new card never holds more than one round's spend.
 */
function decideEach(card: Card, commands: readonly AuthorizeSpend[], from: number): number {
  let approved = 0;
  let folded = card;
  // CPU time, not wall time: on a shared machine, time spent waiting for a core is not the fold's.
  const started = process.cpuUsage();
  for (let index = 0; index < commands.length; index++) {
    const events = cardDecider.decide(commands[index], folded, { now: new Date(from + index * 1000) });
    if (events[0].type === 'CardAuthorizationApproved') approved++;
    folded = events.reduce(cardDecider.evolve, folded);
  }
  const used = process.cpuUsage(started);
  const seconds = (used.user + used.system) / 1e6;
  if (approved !== commands.length) throw new Error(`long-history figures: ${commands.length - approved} of ${commands.length} authorizations were not approved`);
  return commands.length / seconds;
}

const WARM_UP_ROUNDS = 3;

function authorizations(count: number, duration: SpendLimitDuration): AuthorizeSpend[] {
  return Array.from({ length: count }, (_, index) => {
    const transactionToken = `measured-${duration}-${index}`;
    return {
      type: 'AuthorizeSpend',
      facts: {
        cardToken: CARD_TOKEN,
        programToken: PROGRAM_TOKEN,
        transactionToken,
        eventToken: `event-${transactionToken}`,
        amount: 100 + (index % 5_000),
        merchant: MERCHANT,
        merchantAmount: 100 + (index % 5_000),
        merchantCurrency: 'USD',
        authorizationCode: '123456',
      },
      checks: {
        programState: 'ACTIVE',
        merchantBlocked: false,
        velocity: null,
        globalLimitExceeded: null,
        fundingState: 'ENABLED',
        cvvMatches: null,
        expiryMatches: null,
        presentedPinHash: null,
        streamDecline: null,
      },
    };
  });
}

function created(): CardEvent {
  return {
    type: 'CardCreated',
    data: {
      cardToken: CARD_TOKEN,
      programToken: PROGRAM_TOKEN,
      cardType: 'DIGITAL_WALLET',
      state: 'OPEN',
      memo: '',
      spendLimit: SPEND_LIMIT,
      spendLimitDuration: 'FOREVER',
      fundingToken: 'f0f0f0f0-0000-4000-8000-000000000001',
      expMonth: '12',
      expYear: '2099',
      lastFour: '4242',
      panHash: 'hash-of-pan',
      panEncrypted: 'v1:cipher',
      pinHash: null,
      created: new Date(HISTORY_START).toISOString(),
    },
  };
}

function withDuration(card: Card, spendLimitDuration: SpendLimitDuration): Card {
  return cardDecider.evolve(card, { type: 'CardDetailsChanged', data: { cardToken: CARD_TOKEN, spendLimitDuration } });
}

/** Every 4th approval is cleared for a different amount a few approvals later; every 25th is partly returned. */
const CLEARED_EVERY = 4;
const RETURNED_EVERY = 25;
const CLEARED_AFTER = 3;

/** The long card's events: approvals spread over time, clearings that change earlier entries in place, returns. */
function longHistory(transactions: number): CardEvent[] {
  const events: CardEvent[] = [created()];
  const amountOf = (index: number) => 100 + ((index * 7_919) % 10_000);
  for (let index = 0; index < transactions; index++) {
    const at = new Date(HISTORY_START + (index + 1) * APPROVAL_EVERY_MS).toISOString();
    const transactionToken = `history-${index}`;
    events.push({
      type: 'CardAuthorizationApproved',
      data: {
        cardToken: CARD_TOKEN,
        programToken: PROGRAM_TOKEN,
        transactionToken,
        eventToken: `event-${transactionToken}`,
        amount: amountOf(index),
        merchant: MERCHANT,
        merchantAmount: amountOf(index),
        merchantCurrency: 'USD',
        authorizationCode: '123456',
        fundingToken: 'f0f0f0f0-0000-4000-8000-000000000001',
        at,
      },
    });
    const cleared = index - CLEARED_AFTER;
    if (cleared >= 0 && cleared % CLEARED_EVERY === 0) {
      events.push({
        type: 'CardSpendAdjusted',
        data: { cardToken: CARD_TOKEN, transactionToken: `history-${cleared}`, transactionVersion: 1, cause: 'CLEARING', amount: amountOf(cleared) - 50 },
      });
    }
    if (index % RETURNED_EVERY === RETURNED_EVERY - 1) {
      events.push({
        type: 'CardReturnCredited',
        data: { cardToken: CARD_TOKEN, transactionToken: `return-${index}`, eventToken: `event-return-${index}`, amount: Math.floor(amountOf(index) / 2), at },
      });
    }
  }
  return events;
}

/** A full garbage collection, for heap figures that hold only what is still reachable. */
function fullGc(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}
