// ESLint here checks one thing: which file may import which (issue 15). Style is left to review.
// The rule reads the Nx project graph (project.json tags, tsconfig paths, imports); `npm run lint`
// computes it first. Tags: type:app | type:lib | type:tool on every project, and scope:* on the libs
// whose direction matters.
import nx from '@nx/eslint-plugin';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import tseslint from 'typescript-eslint';

const BOUNDARIES = '@nx/enforce-module-boundaries';

/** Apps and libs alike: apps use libs, libs use libs, nothing uses an app (Nx also refuses that by itself). */
const LAYERS = [
  { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
  { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
  { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:lib'] },
];

/** The running code: the domain imports nothing (no lib, no package), contracts only the domain, the event store neither. */
const SOURCE_CONSTRAINTS = [
  ...LAYERS,
  { sourceTag: 'scope:domain', onlyDependOnLibsWithTags: ['scope:domain'], bannedExternalImports: ['*'] },
  { sourceTag: 'scope:contracts', onlyDependOnLibsWithTags: ['scope:domain'] },
  { sourceTag: 'scope:event-store', notDependOnLibsWithTags: ['scope:domain', 'scope:contracts'] },
];

/** Tests keep the same directions and may use test-support; the domain's specs also use fast-check. */
const TEST_CONSTRAINTS = [
  ...LAYERS,
  { sourceTag: 'scope:domain', onlyDependOnLibsWithTags: ['scope:domain', 'scope:test-support'], allowedExternalImports: ['fast-check'] },
  { sourceTag: 'scope:contracts', onlyDependOnLibsWithTags: ['scope:domain', 'scope:test-support'] },
  { sourceTag: 'scope:event-store', notDependOnLibsWithTags: ['scope:domain', 'scope:contracts'] },
];

/** Spec files, and the helpers under an app's or a lib's test/ folder (which the build leaves out). */
export const TEST_FILES = ['**/*.spec.ts', '**/*.test.ts', '**/*.spec.tsx', 'apps/*/test/**/*.ts', 'libs/*/test/**/*.ts'];

// checkDynamicDependenciesExceptions: Nx refuses a lib imported both with import() and statically,
// which matters to browser bundles split per import(); in Node an import() only defers loading.
const boundaries = (depConstraints) => ['error', { enforceBuildableLibDependency: false, allow: [], checkDynamicDependenciesExceptions: ['@ledger/*'], depConstraints }];

/**
 * A package specifier (not a relative path) that reaches into a package's dist/, cjs/ or internal/
 * files: its internals, free to change in any release (routing once read @nestjs/cqrs's dist/
 * constants, the edge class-transformer's cjs/ storage). Relative paths are a project's own files
 * (Prisma's generated client imports its own ./internal files).
 */
const INTERNAL_PATH = '^[^./][^\'"]*/(dist|cjs|internal)(/|$)';
const INTERNALS_MESSAGE = "a package's internals: use its public exports";

/** Anyone, specs included: internals reached with import, export-from, import(), require() or `import x = require()`. */
const NO_INTERNALS = { regex: INTERNAL_PATH, message: INTERNALS_MESSAGE };
// esquery's regular expressions end at the first slash, so slashes are written \x2F there.
const NO_INTERNALS_BY_CALL = [
  'error',
  ...['ImportExpression', "CallExpression[callee.name='require']", 'TSExternalModuleReference'].map((call) => ({
    selector: `${call} > Literal[value=/${INTERNAL_PATH.replaceAll('/', '\\x2F')}/]`,
    message: INTERNALS_MESSAGE,
  })),
];

/**
 * Running code never imports the test helpers. A file rule, not a tag: Nx checks tags through the
 * whole graph, where every lib whose specs use test-support depends on it.
 */
const NO_TEST_SUPPORT_OR_INTERNALS = ['error', { paths: [{ name: '@ledger/test-support', message: 'test helpers are for specs and test/ folders' }], patterns: [NO_INTERNALS] }];

/**
 * No import cycle between files. Packages are not followed (`ignoreExternal`): a cycle through
 * node_modules is not ours to fix, and following them is most of the rule's cost. Imports of types
 * only are passed over by the rule: the compiler erases them, so they cannot change what loads first.
 */
const NO_CYCLE = ['error', { ignoreExternal: true }];

/** The event store's two adapters share only the port and src/support; neither reaches into the other. */
const ADAPTERS_APART = [
  'error',
  {
    zones: [
      { target: './libs/event-store/src/eventstoredb', from: './libs/event-store/src/postgres', message: 'the EventStoreDB adapter does not import the PostgreSQL adapter' },
      { target: './libs/event-store/src/postgres', from: './libs/event-store/src/eventstoredb', message: 'the PostgreSQL adapter does not import the EventStoreDB adapter' },
    ],
  },
];

/** Committed files that break the rules on purpose, for tools/module-boundaries' spec to lint. */
export const FIXTURES = 'tools/module-boundaries/fixtures/**';

export default [
  { ignores: [FIXTURES, '**/node_modules/**', 'dist/**', '.data/**', '.nx/**', 'coverage/**', 'bench-results/**', 'libs/read-model/src/generated/**'] },
  {
    files: ['**/*.ts', '**/*.tsx'],
    // typescript-eslint's rules are known (a disable comment may name one) but none is turned on.
    plugins: { '@nx': nx, '@typescript-eslint': tseslint.plugin, 'import-x': importX },
    languageOptions: { parser: tseslint.parser },
    linterOptions: { reportUnusedDisableDirectives: 'off' },
    settings: {
      // The rules follow .ts files too (by default only JavaScript), parsed as the files being linted are.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs', '.cjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      // Imports resolved as the compiler resolves them: relative paths and tsconfig.base.json's @ledger/* aliases.
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'tsconfig.base.json' })],
    },
    rules: {
      [BOUNDARIES]: boundaries(SOURCE_CONSTRAINTS),
      'no-restricted-imports': NO_TEST_SUPPORT_OR_INTERNALS,
      'no-restricted-syntax': NO_INTERNALS_BY_CALL,
      'import-x/no-cycle': NO_CYCLE,
      'import-x/no-restricted-paths': ADAPTERS_APART,
    },
  },
  { files: TEST_FILES, rules: { [BOUNDARIES]: boundaries(TEST_CONSTRAINTS), 'no-restricted-imports': ['error', { patterns: [NO_INTERNALS] }] } },
];
