// `npm test` runs every project's specs in one jest process; `nx test <project>` runs one of them.
const { readdirSync, existsSync } = require('node:fs');
const path = require('node:path');

const projects = ['apps', 'libs', 'tools'].flatMap((top) =>
  readdirSync(path.join(__dirname, top))
    .map((name) => path.join(__dirname, top, name, 'jest.config.js'))
    .filter((config) => existsSync(config)),
);

module.exports = {
  projects,
  testTimeout: 30000,
  globalSetup: '<rootDir>/tools/jest-global-setup.cjs',
  globalTeardown: '<rootDir>/tools/jest-global-teardown.cjs',
  reporters: ['default', '<rootDir>/tools/jest-summary-reporter.cjs'],
};
