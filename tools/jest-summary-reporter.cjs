// Prints one plain closing line, "Tests: N passed, N failed, N skipped", that CI and people read
// the same way whatever the runner; skipped suites also say why (their describe titles carry it).
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skippedTitles = new Set();
    for (const suite of results.testResults) {
      for (const test of suite.testResults) {
        if (test.status === 'pending' || test.status === 'skipped') skippedTitles.add(test.ancestorTitles[0] ?? test.title);
      }
    }
    for (const title of skippedTitles) process.stdout.write(`skipped: ${title}\n`);
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const skipped = results.numPendingTests + results.numTodoTests;
    process.stdout.write(`Tests: ${results.numPassedTests} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
module.exports = SummaryReporter;
