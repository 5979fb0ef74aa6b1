// turnwire/render: the render module and its lazily loaded stream module (issue 12, point 5),
// against the package installed in the scratch consumer. It must render exactly what the main
// entry renders (every golden fixture x provider, byte for byte), keep a Conversation
// incremental, stream turns the strict mock providers accept, and export what render.d.ts
// declares. Chromium checks the lazy load itself (browser-render.run.mjs). This process loads
// no other entry: with the main module loaded too, streamTurn would use its decoders.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import * as render from "turnwire/render";
import { MOCK_PROVIDERS, startMockProviders } from "turnwire/mock";
import { loadFixtures } from "./fixtures.mjs";
import { MODELS } from "./mock-helpers.mjs";
import { optionsFor, transcriptFixtures } from "./suite.mjs";

const fixtures = transcriptFixtures(loadFixtures(process.env.TURNWIRE_FIXTURES));
const PROVIDERS = ["anthropic", "openai-chat", "openai-responses", "gemini", "mistral", "kimi", "deepseek", "openai-compatible"];
const human = (text) => ({ speaker: "human", blocks: [{ type: "text", text }] });
const decode = (bytes) => new TextDecoder().decode(bytes);

describe("REQ-915-issue12 turnwire/render: the render module", () => {
  test("exports what render.d.ts declares (and initSync, as the browser entry does)", () => {
    const dts = readFileSync(new URL("./node_modules/turnwire/dist/render.d.ts", import.meta.url), "utf8");
    const block = dts.match(/export \{([^}]*)\} from "\.\/index\.js";/);
    assert.ok(block, "render.d.ts has one export list");
    const declared = block[1].split(",").map((s) => s.trim()).filter(Boolean).sort();
    const runtime = Object.keys(render).filter((k) => k !== "initSync").sort();
    assert.deepEqual(runtime, declared);
  });

  test("every fixture x provider renders byte for byte as the Rust goldens", () => {
    let compared = 0;
    for (const fixture of fixtures) {
      for (const provider of PROVIDERS) {
        const where = `${fixture.name}/${provider}`;
        const options = optionsFor(fixture, provider);
        const golden = JSON.parse(fixture.files[`${provider}.json`]);
        const text = fixture.files["transcript.json"];
        if (golden.error) {
          assert.throws(() => render.renderBody(text, options), (e) => render.isTurnwireError(e) && e.code === golden.error.code, where);
          continue;
        }
        assert.equal(decode(render.renderBody(text, options)), JSON.stringify(golden.body), where);
        compared++;
      }
    }
    assert.ok(compared > 300, `${compared} bodies compared`);
  });

  test("a Conversation appends and renders, equal to a full render after every turn", () => {
    const options = { provider: "anthropic", model: "claude-sonnet-4-5" };
    const conversation = new render.Conversation([human("hello")]);
    for (let i = 0; i < 50; i++) {
      conversation.append({ speaker: "ai", blocks: [{ type: "text", text: `answer ${i}` }] });
      conversation.append(human(`question ${i}`));
      const body = decode(conversation.render(options));
      assert.equal(body, decode(render.renderBody(conversation.toJSON(), options)), `turn ${i}`);
    }
    conversation.free();
  });

  test("its Conversation is editable and guarded as the main entry's is", () => {
    const options = { provider: "gemini", model: "gemini-3-pro-preview" };
    const conversation = new render.Conversation([human("a"), { speaker: "ai", blocks: [{ type: "text", text: "b" }] }]);
    assert.deepEqual(conversation.splice(1, 1, human("c"), human("d")), [{ speaker: "ai", blocks: [{ type: "text", text: "b" }] }]);
    assert.deepEqual(conversation.at(-1), human("d"));
    assert.equal(conversation.inFlight, false);
    assert.equal(decode(conversation.render(options)), decode(render.renderBody(conversation.toJSON(), options)));
    assert.deepEqual(conversation.toolCalls(), []);
    conversation.free();
  });

  test("another entry's features say which entry has them", () => {
    assert.equal(render.fromAiSdk, undefined);
    assert.equal(render.validateRequest, undefined);
  });
});

describe("REQ-915-issue12 turnwire/render: streamTurn loads the stream module on first use", () => {
  let mock;
  before(async () => {
    mock = await startMockProviders();
  });
  after(async () => {
    await mock?.close();
  });

  test("two turns per provider through the render entry; the strict mocks accept every request", async () => {
    for (const provider of MOCK_PROVIDERS) {
      const conversation = new render.Conversation([human("list the files")]);
      for (let turn = 0; turn < 2; turn++) {
        const { message } = await render.streamTurn({ provider, model: MODELS[provider], apiKey: "test-key", baseURL: mock.baseURL(provider), conversation });
        assert.equal(message.speaker, "ai", provider);
        conversation.append(human("go on"));
      }
      assert.equal(conversation.length, 5, provider);
      conversation.free();
    }
    const rejected = mock.log.filter((e) => e.outcome === "rejected");
    assert.deepEqual(rejected.map((e) => `${e.provider} ${e.status}`), []);
    assert.equal(mock.stats.accepted, 2 * MOCK_PROVIDERS.length);
  });

  test("setMemoryBudget reaches the stream module: a 16 MB reply over a 2 MiB budget is a typed out_of_memory limit", async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      const sse = (o) => `event: ${o.type}\ndata: ${JSON.stringify(o)}\n\n`;
      res.write(sse({ type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [], stop_reason: null, usage: { input_tokens: 1, output_tokens: 0 } } }));
      res.write(sse({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }));
      const delta = sse({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "z".repeat(64 * 1024) } });
      let left = 256;
      let open = true;
      res.on("close", () => (open = false));
      const pump = () => {
        let more = true;
        while (open && left > 0 && more) (more = res.write(delta)), left--;
        if (open && left === 0) res.end(sse({ type: "content_block_stop", index: 0 }) + sse({ type: "message_stop" }));
        else if (open) res.once("drain", pump);
      };
      pump();
    });
    await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
    const conversation = new render.Conversation([human("hi")]);
    const start = render.memoryStats();
    render.setMemoryBudget(start.liveBytes + 2 * 1024 * 1024);
    let error;
    try {
      await render.streamTurn({ provider: "anthropic", model: "claude-sonnet-4-5", apiKey: "k", baseURL: `http://127.0.0.1:${server.address().port}`, conversation });
    } catch (e) {
      error = e;
    } finally {
      render.setMemoryBudget(start.budgetBytes);
      server.closeAllConnections();
      server.close();
    }
    assert.ok(render.isProviderError(error), String(error));
    assert.equal(error.kind, "limit");
    assert.equal(error.errorType, "out_of_memory");
    // with the budget back, the next turn's decoder has memory again
    conversation.free();
  });
});
