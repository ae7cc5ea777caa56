import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cyclesWithin, dependencyViolations } from './dependency-rules';
import { importCycles, importGraph } from './import-graph';

const repositoryRoot = path.resolve(__dirname, '../..');

describe('dependency directions and cycles', () => {
  const graph = importGraph(repositoryRoot);

  it('reads the whole repository', () => {
    // A resolver that silently found nothing would pass every rule below.
    expect(graph.get('libs/event-store/src/command-pipeline.ts')).toContain('libs/event-store/src/event-store.port.ts');
    expect(graph.get('libs/card-service/src/create-card/create-card.handler.ts')).toContain('libs/domain/src/index.ts');
  });

  it('hold in the libraries: the domain alone, the contracts on the domain, the event store on neither', () => {
    expect(dependencyViolations(graph)).toEqual([]);
  });

  it('leave no import cycle between files in libs or apps', () => {
    expect(cyclesWithin(graph, 'libs')).toEqual([]);
    expect(cyclesWithin(graph, 'apps')).toEqual([]);
  });
});

describe('the dependency check, on a repository that breaks every rule', () => {
  let root: string;

  beforeAll(() => {
    root = mkdtempSync(path.join(tmpdir(), 'dependency-rules-'));
    const paths = Object.fromEntries(['domain', 'contracts', 'event-store', 'test-support'].map((lib) => [`@ledger/${lib}`, [`libs/${lib}/src/index.ts`]]));
    const files: Record<string, string> = {
      'tsconfig.base.json': JSON.stringify({ compilerOptions: { baseUrl: '.', paths } }),
      'libs/domain/src/index.ts': "export * from './card';\n",
      'libs/domain/src/card.ts': "import type { RecordedEvent } from '@ledger/event-store';\nexport type Card = RecordedEvent;\n",
      'libs/domain/src/card.spec.ts': "import '@ledger/test-support';\nimport './card';\n",
      'libs/contracts/src/index.ts': "export { Card } from '@ledger/domain';\nexport * from '../../event-store/src/index';\n",
      'libs/event-store/src/index.ts': "import type { Card } from '@ledger/domain';\nimport '@ledger/contracts';\nexport type RecordedEvent = { card?: Card };\n",
      'libs/event-store/src/eventstoredb/adapter.ts': "import { batch } from '../postgres/batch';\nexport const size = batch;\n",
      'libs/event-store/src/postgres/batch.ts': 'export const batch = 1;\n',
      'libs/test-support/src/index.ts': "import 'node:fs';\n",
      'apps/server/src/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
      'apps/server/src/b.ts': "import type { a } from './a';\nexport const b = 1 as unknown as typeof a;\n",
    };
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    }
  });

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('names every forbidden import, type-only imports and re-exports included, and passes over specs', () => {
    const violations = dependencyViolations(importGraph(root)).map(({ rule, from, to }) => `${from} -> ${to}: ${rule}`);
    expect(violations.sort()).toEqual(
      [
        'libs/domain/src/card.ts -> libs/event-store/src/index.ts: the domain imports nothing outside libs/domain',
        'libs/contracts/src/index.ts -> libs/event-store/src/index.ts: the contracts import only the domain',
        'libs/event-store/src/index.ts -> libs/domain/src/index.ts: the event store imports neither the domain nor the contracts',
        'libs/event-store/src/index.ts -> libs/contracts/src/index.ts: the event store imports neither the domain nor the contracts',
        'libs/event-store/src/eventstoredb/adapter.ts -> libs/event-store/src/postgres/batch.ts: the EventStoreDB adapter does not import the PostgreSQL adapter',
      ].sort(),
    );
  });

  it('finds the cycles across libraries and within an app, through type-only imports', () => {
    const graph = importGraph(root);
    expect(cyclesWithin(graph, 'libs')).toEqual([
      ['libs/contracts/src/index.ts', 'libs/domain/src/card.ts', 'libs/domain/src/index.ts', 'libs/event-store/src/index.ts'],
    ]);
    expect(cyclesWithin(graph, 'apps')).toEqual([['apps/server/src/a.ts', 'apps/server/src/b.ts']]);
  });

  it('counts a file that imports itself as a cycle, and a chain without a way back as none', () => {
    expect(importCycles(new Map([['x.ts', ['x.ts']]]))).toEqual([['x.ts']]);
    expect(importCycles(new Map([['x.ts', ['y.ts']], ['y.ts', ['z.ts']], ['z.ts', []]]))).toEqual([]);
  });
});
