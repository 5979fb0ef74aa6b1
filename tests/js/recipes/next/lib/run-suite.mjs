// Shared by both routes: runs the suite on the posted fixtures (and, given the x-turnwire-mock
// header, streamTurn against the strict mock providers) and answers the summary.
import * as api from "turnwire";
import assert from "./assert.mjs";
// Next's local edge sandbox is @edge-runtime/vm: see edge-assert.mjs (a no-op in the Node runtime)
import realmBlindAssert from "./edge-assert.mjs";
import { createHarness } from "./harness.mjs";
import { defineSuite } from "./suite.mjs";

export async function runSuite(request, label) {
  const harness = createHarness();
  const report = {};
  const edge = label === "next-edge";
  harness.test(`runs in the ${edge ? "edge" : "Node.js"} runtime`, () => {
    assert.equal(typeof globalThis.EdgeRuntime, edge ? "string" : "undefined");
  });
  const mock = request.headers.get("x-turnwire-mock");
  defineSuite(api, label, {
    describe: harness.describe,
    test: harness.test,
    assert: realmBlindAssert,
    fixtures: await request.json(),
    mock: mock ? JSON.parse(mock) : undefined,
    report: (key, value) => (report[key] = value),
  });
  return Response.json({ ...(await harness.run()), report });
}
