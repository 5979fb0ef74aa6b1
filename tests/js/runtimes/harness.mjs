// A small test runner with node:test's `describe(name, fn)` / `test(name, [options], fn)`, for
// the runtimes where node:test is missing or differs (Deno, Bun, workerd, the browser): the
// suite registers its tests, then `run()` executes them one by one (async ones awaited) and
// returns a plain, JSON-able summary. Bounded: once `budgetMs` is spent, the remaining tests
// are reported as failed instead of run.
export function createHarness() {
  const root = { name: "", children: [] };
  let current = root;

  function describe(name, fn) {
    const node = { name, children: [] };
    current.children.push(node);
    const parent = current;
    current = node;
    try {
      fn();
    } finally {
      current = parent;
    }
  }

  function test(name, options, fn) {
    if (typeof options === "function") [options, fn] = [{}, options];
    current.children.push({ name, fn, skip: options?.skip });
  }

  async function run({ budgetMs = 120_000, log = () => {} } = {}) {
    const started = Date.now();
    const summary = { passed: 0, failed: 0, skipped: 0, failures: [], skips: [], ms: 0 };
    async function walk(node, prefix) {
      for (const child of node.children) {
        const name = prefix ? `${prefix} > ${child.name}` : child.name;
        if (child.children) {
          await walk(child, name);
        } else if (child.skip) {
          summary.skipped++;
          summary.skips.push({ name, reason: String(child.skip) });
          log(`- ${name} # SKIP ${child.skip}`);
        } else if (Date.now() - started > budgetMs) {
          summary.failed++;
          summary.failures.push({ name, error: `not run: the ${budgetMs} ms budget is spent` });
        } else {
          try {
            await child.fn();
            summary.passed++;
            log(`ok ${name}`);
          } catch (e) {
            summary.failed++;
            summary.failures.push({ name, error: String(e?.stack ?? e) });
            log(`not ok ${name}\n${String(e?.stack ?? e).replace(/^/gm, "    ")}`);
          }
        }
      }
    }
    await walk(root, "");
    summary.ms = Date.now() - started;
    return summary;
  }

  return { describe, test, run };
}
