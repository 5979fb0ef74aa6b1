// Shared by deno.run.mjs and bun.run.mjs: runs the registered tests, prints one line per test
// and, last, `TURNWIRE_RESULT <json summary>` for tests/js/runtimes/run.mjs; exits non-zero
// when a test failed.
export async function runAndPrint(harness, { runtime, report, exit }) {
  const summary = await harness.run({ log: (line) => console.log(line) });
  console.log(`TURNWIRE_RESULT ${JSON.stringify({ runtime, ...summary, report })}`);
  exit(summary.failed === 0 && summary.passed > 0 ? 0 : 1);
}
