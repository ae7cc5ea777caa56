import { importCycles, type ImportGraph } from './import-graph';

/**
 * Which way dependencies may run between the libraries. The domain is pure and stands alone; the
 * contracts (commands, queries, messages, REST shapes) build on the domain only; the event store is
 * infrastructure that knows no domain and no contracts, and its two adapters share only the port and
 * event-store/src/support. Specs may import test helpers, so only production sources are held to it.
 */
export interface DependencyViolation {
  readonly rule: string;
  readonly from: string;
  readonly to: string;
}

interface Rule {
  readonly name: string;
  readonly appliesTo: (file: string) => boolean;
  readonly forbids: (target: string) => boolean;
}

const inFolder = (folder: string) => (file: string) => file.startsWith(`${folder}/`);
const isProduction = (file: string) => !/\.(spec|test)\.ts$/.test(file) && !file.includes('/test/');

export const DEPENDENCY_RULES: readonly Rule[] = [
  { name: 'the domain imports nothing outside libs/domain', appliesTo: inFolder('libs/domain'), forbids: (target) => !inFolder('libs/domain')(target) },
  {
    name: 'the contracts import only the domain',
    appliesTo: inFolder('libs/contracts'),
    forbids: (target) => !inFolder('libs/contracts')(target) && !inFolder('libs/domain')(target),
  },
  {
    name: 'the event store imports neither the domain nor the contracts',
    appliesTo: inFolder('libs/event-store'),
    forbids: (target) => inFolder('libs/domain')(target) || inFolder('libs/contracts')(target),
  },
  {
    name: 'the EventStoreDB adapter does not import the PostgreSQL adapter',
    appliesTo: inFolder('libs/event-store/src/eventstoredb'),
    forbids: inFolder('libs/event-store/src/postgres'),
  },
  {
    name: 'the PostgreSQL adapter does not import the EventStoreDB adapter',
    appliesTo: inFolder('libs/event-store/src/postgres'),
    forbids: inFolder('libs/event-store/src/eventstoredb'),
  },
];

export function dependencyViolations(graph: ImportGraph, rules: readonly Rule[] = DEPENDENCY_RULES): DependencyViolation[] {
  const violations: DependencyViolation[] = [];
  for (const [from, targets] of graph) {
    if (!isProduction(from)) continue;
    for (const rule of rules.filter((candidate) => candidate.appliesTo(from))) {
      for (const to of targets.filter(rule.forbids)) violations.push({ rule: rule.name, from, to });
    }
  }
  return violations;
}

/** Import cycles among the files of `folder` (a cycle that only passes through it counts too). */
export function cyclesWithin(graph: ImportGraph, folder: string): string[][] {
  return importCycles(graph).filter((cycle) => cycle.some(inFolder(folder)));
}
