// workerd: a Cloudflare Worker that imports "turnwire" as a user's worker would. run.mjs bundles
// it with wrangler (which resolves the package's `workerd` entry, dist/workerd.mjs, and turns
// the .wasm import into a compiled module), runs it in workerd through the Miniflare API without
// nodejs_compat, and POSTs the fixtures (and, in a header, the mock providers' base URLs); the
// worker runs the suite and answers the summary.
import * as api from "turnwire";
import assert from "./assert.mjs";
import { createHarness } from "./harness.mjs";
import { defineSuite } from "./suite.mjs";

export default {
  async fetch(request) {
    const fixtures = await request.json();
    const harness = createHarness();
    const report = {};
    harness.test("runs without nodejs_compat (no Buffer, no process)", () => {
      assert.equal(typeof globalThis.Buffer, "undefined");
      assert.equal(typeof globalThis.process, "undefined");
    });
    const mock = request.headers.get("x-turnwire-mock");
    defineSuite(api, "workerd", {
      describe: harness.describe,
      test: harness.test,
      assert,
      fixtures,
      mock: mock ? JSON.parse(mock) : undefined,
      report: (key, value) => (report[key] = value),
    });
    const summary = await harness.run();
    return Response.json({ runtime: `workerd ${request.headers.get("x-turnwire-runtime")}`, ...summary, report });
  },
};
