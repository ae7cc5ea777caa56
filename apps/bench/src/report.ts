import type { CpuReading } from './process-cpu';
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { LoadResult } from './load';
import type { machine } from './machine';

/** One target of an issue, judged on this run's own numbers. */
export interface TargetRow {
  figure: string;
  measured: string;
  target: string;
  met: boolean;
}

export interface BenchResult {
  machine: ReturnType<typeof machine>;
  mode: string;
  connections: number;
  seconds: number;
  ceilings: { commitsPerSecond: number; bareRoute: LoadResult; authorizationWritesPerSecond: number };
  authorizations: {
    manyCards: LoadResult;
    hotCard: LoadResult;
    /** autocannon's rate mode (`result`) and an evenly paced open loop (`paced`, paced-load.ts) at the same rate. */
    atEightyPercent: { targetRate: number; result: LoadResult; paced: LoadResult };
    /** CPU milliseconds per answered authorization of the 200-card run: the service's, and PostgreSQL's. */
    cpuPerAuthorization: CpuReading;
    /** The same 200-card run with the followers narrowed off (LEDGER_ROLES, whole-service-figures.ts). */
    narrowed: { result: LoadResult; cpu: CpuReading; commits: number };
  };
  projectionLagMs: { samples: number; p50: number; p99: number; max: number };
  replay: { events: number; eventsPerSecond: number; identical: boolean };
  /** The replay rate on the large log, and the rate the same events are read at without projecting them. */
  largeReplay: {
    events: number;
    eventsPerSecond: number;
    readCeilingEventsPerSecond: number;
    writeCeilingEventsPerSecond: number;
    /** The replay's Node.js stage alone: the same reads and derivation, nothing written. */
    derivationAloneEventsPerSecond: number;
    /** CPU milliseconds per 1,000 events of the replay and of the read ceiling: the bench's own process (`serviceMs`) and PostgreSQL. */
    replayCpu: CpuReading;
    readCeilingCpu: CpuReading;
    /** The cores the replay's CPU budget is counted on. */
    cores: number;
  };
  lists: { transactions: number; list: LoadResult; byCard: LoadResult }[];
  peakRssMiB: number;
  /** Which phase made the peak (PeakMemoryByPhase). */
  peakMemoryPhases: string;
  /** From the bench's start to its report: the seeding and every figure above. */
  durationSeconds: number;
  /** Issue targets, each made by its figure's own file (authorization-figures.ts, audit-figures.ts, ...). */
  targets: TargetRow[];
}

const BYTES_PER_MIB = 1024 * 1024;
const megabytes = (mib: number) => Math.round((mib * BYTES_PER_MIB) / 1e6);

const pct = (value: number) => `${Math.round(value * 100)}%`;
const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');

/** The targets, each judged on this run's own numbers. */
function targets(r: BenchResult): [string, string, boolean][] {
  const largest = r.lists[r.lists.length - 1];
  return [
    [
      'authorizations/s >= 50% of the single-insert commit ceiling',
      `${r.authorizations.manyCards.requestsPerSecond} / ${r.ceilings.commitsPerSecond} = ${pct(r.authorizations.manyCards.requestsPerSecond / r.ceilings.commitsPerSecond)}`,
      r.authorizations.manyCards.requestsPerSecond >= 0.5 * r.ceilings.commitsPerSecond,
    ],
    [
      'p99 authorization latency < 50 ms at 80% of the peak rate',
      `${r.authorizations.atEightyPercent.result.p99} ms (evenly paced: ${r.authorizations.atEightyPercent.paced.p99} ms)`,
      Math.max(r.authorizations.atEightyPercent.result.p99, r.authorizations.atEightyPercent.paced.p99) < 50,
    ],
    [
      `list p99 < 20 ms at ${largest?.transactions ?? 0} transactions`,
      largest ? `${largest.list.p99} ms (by card: ${largest.byCard.p99} ms)` : 'not measured',
      largest ? largest.list.p99 < 20 && largest.transactions >= 1_000_000 : false,
    ],
    ['projection lag p99 < 100 ms', `${r.projectionLagMs.p99} ms`, r.projectionLagMs.p99 < 100],
    ['replay >= 20,000 events/s', `${r.largeReplay.eventsPerSecond} events/s`, r.largeReplay.eventsPerSecond >= 20_000],
    // The target is in MB (10^6 bytes); the kernel reports KiB, shown here as MiB too.
    ['peak memory < 300 MB', `${megabytes(r.peakRssMiB)} MB (${r.peakRssMiB} MiB)`, megabytes(r.peakRssMiB) < 300],
    ['one full run (1M transactions listed) < 10 minutes', `${r.durationSeconds} s`, r.durationSeconds < 600 && (largest?.transactions ?? 0) >= 1_000_000],
  ];
}

function loadRow(name: string, l: LoadResult): string {
  return `| ${name} | ${l.requestsPerSecond}/s | ${l.p50} / ${l.p99} / ${l.max} ms | ${l.errors} errors, ${l.non2xx} non-2xx of ${l.total} |`;
}

export function report(r: BenchResult): void {
  const m = r.machine;
  const a = r.authorizations;
  const lines = [
    `\n## ${m.date} (commit ${m.commit}, ${r.mode})`,
    '',
    `Machine: ${m.cores} cores, ${m.memoryGiB} GiB, ${m.cpu}, Node ${m.node}. Load: ${r.connections} connections, ${r.seconds} s per run; the service ran as its own process beside the load generator on the same cores.`,
    '',
    '| Run | Rate | p50 / p99 / max | Errors |',
    '|---|---|---|---|',
    `| Ceiling: single-row INSERT + COMMIT (pg, ${r.connections} connections) | ${r.ceilings.commitsPerSecond}/s | | |`,
    `| Ceiling: an authorization's write alone (atomic append of card, transaction and program check, group commit, ${r.connections} writers) | ${r.ceilings.authorizationWritesPerSecond}/s | | |`,
    loadRow('Ceiling: the service\'s bare route (GET /health/live, every global stage, no work)', r.ceilings.bareRoute),
    loadRow(`Authorizations, ${200} cards`, a.manyCards),
    loadRow(`Authorizations, ${200} cards, followers narrowed off (LEDGER_ROLES)`, a.narrowed.result),
    loadRow('Authorizations, one hot card', a.hotCard),
    loadRow(`Authorizations at 80% of the peak (${a.atEightyPercent.targetRate}/s asked, autocannon's rate mode)`, a.atEightyPercent.result),
    loadRow(`Authorizations at 80% of the peak (${a.atEightyPercent.targetRate}/s, evenly paced, latency from when each was due)`, a.atEightyPercent.paced),
    ...r.lists.flatMap((list) => [
      loadRow(`List transactions (page_size 50, random page, one reader) at ${list.transactions} stored`, list.list),
      loadRow(`List one card's transactions (one reader) at ${list.transactions} stored`, list.byCard),
    ]),
    '',
    `Ratios: authorizations = ${pct(a.manyCards.requestsPerSecond / r.ceilings.commitsPerSecond)} of the commit ceiling and ${pct(a.manyCards.requestsPerSecond / r.ceilings.bareRoute.requestsPerSecond)} of the bare route; the hot card runs at ${pct(a.hotCard.requestsPerSecond / Math.max(1, a.manyCards.requestsPerSecond))} of many cards.`,
    `CPU per authorization (200 cards): service ${a.cpuPerAuthorization.serviceMs} ms, PostgreSQL ${a.cpuPerAuthorization.postgresMs ?? 'not measured (not this machine\'s server)'} ms; the bare route's whole request costs the two cores ${Math.round((2000 / Math.max(1, r.ceilings.bareRoute.requestsPerSecond)) * 1000) / 1000} ms at most.`,
    `Projection lag (append to read model): p50 ${r.projectionLagMs.p50} ms, p99 ${r.projectionLagMs.p99} ms, max ${r.projectionLagMs.max} ms (${r.projectionLagMs.samples} samples).`,
    `Replay: ${r.replay.eventsPerSecond} events/s over the whole early log (${r.replay.events} events, ${r.replay.identical ? 'identical to' : 'DIFFERENT from'} the live read models); ${r.largeReplay.eventsPerSecond} events/s over ${r.largeReplay.events} events of the large log, whose events are read (and decoded) alone at ${r.largeReplay.readCeilingEventsPerSecond} events/s and whose final rows PostgreSQL alone writes at ${r.largeReplay.writeCeilingEventsPerSecond} events/s.`,
    `Peak resident memory of the service: ${megabytes(r.peakRssMiB)} MB (${r.peakRssMiB} MiB), ${r.peakMemoryPhases}. The whole run took ${r.durationSeconds} s.`,
    '',
    '| Target | This run | |',
    '|---|---|---|',
    ...targets(r).map(([name, value, ok]) => `| ${name} | ${value} | ${verdict(ok)} |`),
    '',
    '### Targets',
    '',
    '| Figure | Measured | Target | |',
    '|---|---|---|---|',
    ...r.targets.map((row) => `| ${row.figure} | ${row.measured} | ${row.target} | ${verdict(row.met)} |`),
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  const results = path.join(process.cwd(), 'bench-results');
  mkdirSync(results, { recursive: true });
  writeFileSync(path.join(results, `bench-${m.date.replace(/[:.]/g, '-')}.json`), `${JSON.stringify(r, null, 2)}\n`);
  const doc = path.join(process.cwd(), 'docs', 'benchmarks.md');
  if (!existsSync(doc)) writeFileSync(doc, '# Benchmarks\n');
  appendFileSync(doc, `${lines.join('\n')}\n`);
}
