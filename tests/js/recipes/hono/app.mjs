// The Hono recipe: an app with one route, POST /suite, that runs the suite on the fixtures it is
// sent (and, given the x-turnwire-mock header, streamTurn against the strict mock providers) and
// answers the summary. `import "turnwire"` resolves the package's `node` entry, as in any Node app.
import { Hono } from "hono";
import * as api from "turnwire";
import assert from "./lib/assert.mjs";
import { createHarness } from "./lib/harness.mjs";
import { defineSuite } from "./lib/suite.mjs";

export const app = new Hono();

app.post("/suite", async (c) => {
  const harness = createHarness();
  const report = {};
  const mock = c.req.header("x-turnwire-mock");
  defineSuite(api, "hono", {
    describe: harness.describe,
    test: harness.test,
    assert,
    fixtures: await c.req.json(),
    mock: mock ? JSON.parse(mock) : undefined,
    report: (key, value) => (report[key] = value),
  });
  return c.json({ ...(await harness.run()), report });
});
