// Shared jest settings for every project: SWC transform (same options as the build) and the @ledger/* aliases.
const path = require('node:path');
const tsconfig = require('./tsconfig.base.json');
const swcOptions = require('./tools/swc-options.cjs');

const root = __dirname;
const moduleNameMapper = Object.fromEntries(
  Object.entries(tsconfig.compilerOptions.paths).map(([alias, [target]]) => [
    `^${alias.replace('/', '\\/')}$`,
    path.join(root, target),
  ]),
);

/** @param {string} projectDir */
module.exports = function jestProject(projectDir) {
  return {
    displayName: path.relative(root, projectDir),
    rootDir: projectDir,
    testEnvironment: 'node',
    testMatch: ['<rootDir>/**/*.spec.ts', '<rootDir>/**/*.test.ts'],
    transform: { '^.+\\.ts$': ['@swc/jest', { ...swcOptions({ rewritePaths: false }), swcrc: false }] },
    moduleNameMapper,
    moduleFileExtensions: ['ts', 'js', 'json'],
  };
};
