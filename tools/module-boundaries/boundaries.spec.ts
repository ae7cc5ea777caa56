import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Issue 15: which project and which file may import which, as `npm run lint` checks it
 * (eslint.config.mjs: the Nx boundary rule on the project tags, import-x's no-cycle and
 * no-restricted-paths). The workspace passes; files that break a rule, linted as if they were in a
 * real app or lib, fail with the rule's own message.
 */

const root = path.resolve(__dirname, '../..');

interface LintMessage {
  readonly filePath: string;
  readonly ruleId: string | null;
  readonly line: number;
  readonly message: string;
}

interface LintAnswer {
  readonly linted: number;
  readonly files: LintMessage[];
  readonly texts: LintMessage[][];
  readonly fixtures: LintMessage[];
}

/** ESLint on the workspace's own configuration, in a child process (see eslint-runner.mjs). */
function eslint(request: { files?: string[]; texts?: { filePath: string; text: string }[]; fixtures?: string[] }): LintAnswer {
  const folder = mkdtempSync(path.join(tmpdir(), 'boundaries-'));
  try {
    const output = path.join(folder, 'answer.json');
    execFileSync(process.execPath, [path.join(__dirname, 'eslint-runner.mjs'), output], {
      cwd: root,
      input: JSON.stringify(request),
      env: { ...process.env, NX_DAEMON: 'false' },
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    return JSON.parse(readFileSync(output, 'utf8'));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

const described = (messages: readonly LintMessage[]) => messages.map(({ filePath, line, ruleId, message }) => `${path.relative(root, filePath)}:${line} ${ruleId}: ${message}`);

describe('module boundaries', () => {
  it('hold in the whole workspace: apps, libs and tools', () => {
    const answer = eslint({ files: ['apps', 'libs', 'tools'] });
    expect(described(answer.files)).toEqual([]);
    // Not vacuous: every TypeScript file of the workspace went through the rule.
    expect(answer.linted).toBeGreaterThan(300);
  }, 120_000);

  describe('are broken by', () => {
    const fixtures = {
      appImportsApp: { filePath: 'apps/admin/src/fixture.ts', text: "import '../../server/src/main';\n" },
      appImportsAppByBaseUrl: { filePath: 'apps/gateway/src/fixture.ts', text: "import 'apps/card-service/src/main';\n" },
      libImportsApp: { filePath: 'libs/host/src/fixture.ts', text: "import '../../../apps/server/src/main';\n" },
      domainImportsFramework: { filePath: 'libs/domain/src/fixture.ts', text: "import { Injectable } from '@nestjs/common';\nexport const x = Injectable;\n" },
      domainImportsLib: { filePath: 'libs/domain/src/fixture.ts', text: "import type { EventStore } from '@ledger/event-store';\nexport type X = EventStore;\n" },
      contractsImportEventStore: { filePath: 'libs/contracts/src/fixture.ts', text: "import type { EventStore } from '@ledger/event-store';\nexport type X = EventStore;\n" },
      eventStoreImportsDomain: { filePath: 'libs/event-store/src/fixture.ts', text: "import type { Card } from '@ledger/domain';\nexport type X = Card;\n" },
      runningCodeImportsTestSupport: { filePath: 'libs/gateway/src/fixture.ts', text: "import { eventually } from '@ledger/test-support';\nexport const x = eventually;\n" },
      codeImportsFrameworkInternals: { filePath: 'libs/host/src/fixture.ts', text: "import { COMMAND_HANDLER_METADATA } from '@nestjs/cqrs/dist/decorators/constants';\nexport const x = COMMAND_HANDLER_METADATA;\n" },
      postgresAdapterImportsEventStoreDb: { filePath: 'libs/event-store/src/postgres/fixture.ts', text: "import '../eventstoredb/eventstoredb-event-store';\n" },
      codeRequiresPackageInternals: { filePath: 'libs/gateway/src/fixture.ts', text: "export const storage = require('class-transformer/cjs/storage');\n" },
      codeLoadsPackageInternalsLater: { filePath: 'libs/gateway/src/fixture.ts', text: "export const client = import('@prisma/client/internal/runtime');\n" },
      specImportsPackageInternals: { filePath: 'libs/gateway/src/fixture.spec.ts', text: "import { ROUTE_ARGS_METADATA } from '@nestjs/common/dist/constants';\nexport const x = ROUTE_ARGS_METADATA;\n" },
      codeImportsItsOwnInternalFolder: { filePath: 'libs/read-model/src/fixture.ts', text: "import { x } from './internal/x';\nexport const y = [x, require('../dist/z')];\n" },
      specImportsTestSupport: { filePath: 'libs/gateway/src/fixture.spec.ts', text: "import { eventually } from '@ledger/test-support';\nexport const x = eventually;\n" },
      domainSpecUsesItsTools: {
        filePath: 'libs/domain/src/fixture.spec.ts',
        text: "import fc from 'fast-check';\nimport { deciderSpecification } from '@ledger/test-support';\nexport const x = [fc, deciderSpecification];\n",
      },
    };
    let linted: Record<keyof typeof fixtures, string[]>;

    beforeAll(() => {
      const names = Object.keys(fixtures) as (keyof typeof fixtures)[];
      const answer = eslint({ texts: names.map((name) => ({ ...fixtures[name], filePath: path.join(root, fixtures[name].filePath) })) });
      linted = Object.fromEntries(names.map((name, index) => [name, answer.texts[index].map(({ ruleId, message }) => `${ruleId}: ${message}`)])) as typeof linted;
    }, 120_000);

    const ACROSS_PROJECTS = '@nx/enforce-module-boundaries: Projects cannot be imported by a relative or absolute path, and must begin with a npm scope';

    it('an app importing another app, by a relative path or by the baseUrl path (apps have no alias)', () => {
      expect(linted.appImportsApp).toEqual([ACROSS_PROJECTS]);
      expect(linted.appImportsAppByBaseUrl).toEqual([ACROSS_PROJECTS]);
    });

    it('a lib importing an app', () => {
      expect(linted.libImportsApp).toEqual([ACROSS_PROJECTS]);
    });

    it('a domain file importing a framework, or any other lib', () => {
      expect(linted.domainImportsFramework).toEqual(['@nx/enforce-module-boundaries: A project tagged with "scope:domain" is not allowed to import "@nestjs/common"']);
      expect(linted.domainImportsLib).toEqual(['@nx/enforce-module-boundaries: A project tagged with "scope:domain" can only depend on libs tagged with "scope:domain"']);
    });

    it('the contracts importing anything but the domain, and the event store importing the domain', () => {
      expect(linted.contractsImportEventStore).toEqual(['@nx/enforce-module-boundaries: A project tagged with "scope:contracts" can only depend on libs tagged with "scope:domain"']);
      expect(linted.eventStoreImportsDomain).toEqual([
        expect.stringMatching(/^@nx\/enforce-module-boundaries: A project tagged with "scope:event-store" can not depend on libs tagged with "scope:domain"/),
      ]);
    });

    it('running code importing the test helpers, which specs may use (the domain\'s with fast-check)', () => {
      expect(linted.runningCodeImportsTestSupport).toEqual(["no-restricted-imports: '@ledger/test-support' import is restricted from being used. test helpers are for specs and test/ folders"]);
      expect(linted.specImportsTestSupport).toEqual([]);
      expect(linted.domainSpecUsesItsTools).toEqual([]);
    });

    it("one event-store adapter importing the other", () => {
      expect(linted.postgresAdapterImportsEventStoreDb).toEqual([
        expect.stringMatching(/^import-x\/no-restricted-paths: .*the PostgreSQL adapter does not import the EventStoreDB adapter/),
      ]);
    });

    const INTERNALS = "a package's internals: use its public exports";

    it("any code, specs included, reaching a package's internals (dist/, cjs/, internal/) by import, require() or import()", () => {
      expect(linted.codeImportsFrameworkInternals).toEqual([`no-restricted-imports: '@nestjs/cqrs/dist/decorators/constants' import is restricted from being used by a pattern. ${INTERNALS}`]);
      expect(linted.codeRequiresPackageInternals).toEqual([`no-restricted-syntax: ${INTERNALS}`]);
      expect(linted.codeLoadsPackageInternalsLater).toEqual([`no-restricted-syntax: ${INTERNALS}`]);
      expect(linted.specImportsPackageInternals).toEqual([`no-restricted-imports: '@nestjs/common/dist/constants' import is restricted from being used by a pattern. ${INTERNALS}`]);
    });

    it("but not a project's own folders of those names, by a relative path", () => {
      expect(linted.codeImportsItsOwnInternalFolder).toEqual([]);
    });
  });

  describe('are broken by an import cycle between files (fixtures/, which the workspace lint skips)', () => {
    const fixtures = path.join(__dirname, 'fixtures');
    let messages: string[];

    beforeAll(() => {
      messages = described(eslint({ fixtures: [fixtures] }).fixtures);
    }, 120_000);

    it('a file importing one that imports it back fails on both sides', () => {
      expect(messages.filter((message) => message.includes('/import-cycle/')).sort()).toEqual([
        'tools/module-boundaries/fixtures/import-cycle/card-limits.ts:1 import-x/no-cycle: Dependency cycle detected',
        'tools/module-boundaries/fixtures/import-cycle/card-state.ts:1 import-x/no-cycle: Dependency cycle detected',
      ]);
    });

    it('imports of types only may go both ways: the compiler erases them', () => {
      expect(messages.filter((message) => message.includes('/type-only-cycle/'))).toEqual([]);
    });
  });
});
