// One SWC configuration for the build and for jest, so tests run the code the service runs.
const path = require('node:path');
const tsconfig = require('../tsconfig.base.json');

const root = path.resolve(__dirname, '..');

/** @param {{ rewritePaths: boolean }} opts */
module.exports = function swcOptions({ rewritePaths }) {
  return {
    sourceMaps: 'inline',
    module: { type: 'commonjs' },
    jsc: {
      target: 'es2022',
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      keepClassNames: true,
      ...(rewritePaths ? { baseUrl: root, paths: tsconfig.compilerOptions.paths } : {}),
    },
  };
};
