import { createConfig, lintFromString } from '@redocly/openapi-core';
import { ledgerForTests } from './test-ledger';

/**
 * The document the running app serves, linted with Redocly's `recommended` rule set (what client
 * generators and API catalogues check): no errors. Warnings are printed, not failed on.
 */

const t = ledgerForTests();

describe("the served OpenAPI document under Redocly's recommended rules", () => {
  it('has no errors', async () => {
    const answer = await fetch(`${t.baseUrl}/openapi.json`);
    expect(answer.status).toBe(200);
    const source = await answer.text();
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source, absoluteRef: `${t.baseUrl}/openapi.json`, config });
    const describe = (problem: (typeof problems)[number]) => `${problem.ruleId} at ${problem.location.map((where) => where.pointer).join(', ')}: ${problem.message}`;
    const warnings = problems.filter((problem) => problem.severity !== 'error');
    if (warnings.length > 0) process.stdout.write(`Redocly recommended warnings (${warnings.length}):\n${warnings.map(describe).join('\n')}\n`);
    // The recommended set is what ran (it makes operationId uniqueness an error), not an empty one that finds nothing.
    expect(config.styleguide.rules.oas3_1).toEqual(expect.objectContaining({ 'operation-operationId-unique': 'error' }));
    expect(problems.filter((problem) => problem.severity === 'error').map(describe)).toEqual([]);
  });
});
