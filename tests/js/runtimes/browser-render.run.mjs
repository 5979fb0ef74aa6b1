// Chromium, a page of its own: `turnwire/render` (issue 12, point 5). The import map sends it
// where the package's exports resolve under the `browser` condition (dist/render-browser.mjs).
// The page must fetch the render module and nothing else before its first streamed turn, render
// every fixture as the goldens, and fetch the stream module once, on that first turn.
import * as api from "turnwire/render";
import assert from "./assert.mjs";
import { createHarness } from "./harness.mjs";
import { MODELS } from "./models.mjs";
import { bodiesDigest, goldenDigest, transcriptFixtures } from "./suite.mjs";

const harness = createHarness();
const report = {};
const fixtures = transcriptFixtures(await (await fetch("/fixtures.json")).json());
const mockAnswer = await fetch("/mock.json");
const mock = mockAnswer.ok ? await mockAnswer.json() : undefined;
/** How many times the page fetched a file of the package whose name ends with `suffix`. */
const fetched = (suffix) => performance.getEntriesByType("resource").filter((e) => e.name.endsWith(suffix)).length;

harness.test("import resolves dist/render-browser.mjs, which fetched the render module only", () => {
  assert.match(import.meta.resolve("turnwire/render"), /\/node_modules\/turnwire\/dist\/render-browser\.mjs$/);
  assert.equal(fetched("/turnwire_render_bg.wasm"), 1, "the render module is fetched once");
  assert.equal(fetched("/turnwire_bg.wasm"), 0, "the main module is not fetched");
  assert.equal(fetched("/turnwire_stream_bg.wasm"), 0, "the stream module waits for the first turn");
});

harness.test("same inputs, same bytes: the digest of every body equals the goldens' digest", async () => {
  const digest = await bodiesDigest(api, fixtures);
  report.digest = digest;
  assert.equal(digest, await goldenDigest(fixtures));
});

harness.test("streamTurn fetches the stream module once, on the first turn; the mocks accept every request", async () => {
  assert.ok(mock, "no mock providers (run.mjs serves /mock.json)");
  for (const provider of ["anthropic", "gemini"]) {
    const conversation = new api.Conversation([{ speaker: "human", blocks: [{ type: "text", text: "hello" }] }]);
    try {
      const turn = api.streamTurn({ provider, model: MODELS[provider], apiKey: "test-key", baseURL: mock.baseURLs[provider], conversation });
      const { message } = await turn;
      assert.equal(message.speaker, "ai");
      assert.equal(conversation.length, 2);
      assert.equal(fetched("/turnwire_stream_bg.wasm"), 1, "the stream module is fetched once");
    } finally {
      conversation.free();
    }
  }
  assert.equal(fetched("/turnwire_bg.wasm"), 0, "the main module is still not fetched");
});

window.__turnwire = { runtime: `Chromium ${navigator.userAgent.match(/Chrome\/([\d.]+)/)?.[1]} (turnwire/render)`, ...(await harness.run()), report };
