/** Prints the plain closing line CI reads: "tests: N passed, N failed, N skipped". */
class SummaryReporter {
  onRunComplete(_contexts, results) {
    // A suite that fails to run counts as a failure too.
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const line = `tests: ${results.numPassedTests} passed, ${failed} failed, ${results.numPendingTests + results.numTodoTests} skipped`;
    process.stdout.write(`\n${line}\n`);
  }
}
module.exports = SummaryReporter;
