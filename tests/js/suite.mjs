// The one JS suite: every runtime entry runs it against the packed package installed into a
// scratch consumer (scripts/test-js.sh). `defineSuite(api, label)` gets the module namespace
// (or `require()` result) of whichever entry the runner loaded.
import assert from "node:assert/strict";
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";

const FIXTURES = process.env.TURNWIRE_FIXTURES;

/** The API every entry exports (the ESM entries also re-export the glue's `initSync`). */
export const API_NAMES = [
  "Conversation",
  "isTurnwireError",
  "isValidToolId",
  "normalize",
  "projectToolId",
  "projectToolIds",
  "renderBody",
  "renderForProvider",
  "validateRequest",
  "wasmMemoryBytes",
];

/** Provider names and the model the Rust golden test renders each with (reference_model). */
const PROVIDERS = {
  anthropic: "claude-sonnet-4-5",
  "openai-chat": "gpt-5.2",
  "openai-responses": "gpt-5.2",
  gemini: "gemini-3-pro-preview",
  mistral: "mistral-large-latest",
  kimi: "kimi-k2-thinking",
  deepseek: "deepseek-reasoner",
  "openai-compatible": "llama-3.3-70b-versatile",
};

const ANTHROPIC = { provider: "anthropic", model: "claude-sonnet-4-5" };
const OPENAI = { provider: "openai-chat", model: "gpt-5.2" };

const HISTORY = [
  { speaker: "human", blocks: [{ type: "text", text: "Count the TODOs" }] },
  {
    speaker: "ai",
    metadata: { provider: "anthropic", model: "claude-sonnet-4-5", turn: null },
    blocks: [
      { type: "tool_call", id: "hist_tool_1", name: "grep", parameters: { q: "TODO", path: null } },
      { type: "tool_call", id: "hist_tool_2", name: "fs.read", parameters: { path: "a.rs" } },
    ],
  },
  {
    speaker: "tool",
    blocks: [{ type: "tool_response", callId: "hist_tool_1", toolName: "grep", result: "3 matches" }],
  },
  { speaker: "human", blocks: [{ type: "text", text: "and now?" }] },
];

const text = (bytes) => new TextDecoder().decode(bytes);

function cases() {
  assert.ok(FIXTURES && existsSync(FIXTURES), "TURNWIRE_FIXTURES must name tests/fixtures");
  return readdirSync(FIXTURES)
    .filter((c) => existsSync(join(FIXTURES, c, "transcript.json")))
    .sort();
}

function readJson(path) {
  return existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : undefined;
}

/** The options tests/golden.rs uses: provider + reference model, options.json, options.<p>.json. */
function optionsFor(dir, provider) {
  return {
    provider,
    model: PROVIDERS[provider],
    ...readJson(join(dir, "options.json")),
    ...readJson(join(dir, `options.${provider}.json`)),
  };
}

/** Calls `f`, which must throw a TurnwireError; returns it. */
function thrown(api, f) {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof Error, `not an Error: ${e}`);
    assert.equal(e.name, "TurnwireError", `${e.name}: ${e.message}`);
    assert.equal(typeof e.code, "string");
    assert.equal(typeof e.path, "string");
    assert.equal(typeof e.message, "string");
    assert.ok(api.isTurnwireError(e));
    return e;
  }
  assert.fail("expected a TurnwireError");
}

function isPlain(x) {
  return x !== null && typeof x === "object" && Object.getPrototypeOf(x) === Object.prototype;
}

/** Every object inside `x` is a plain object and every array a plain array. */
function assertPlainDeep(x, path = "$") {
  if (Array.isArray(x)) {
    assert.equal(Object.getPrototypeOf(x), Array.prototype, path);
    x.forEach((v, i) => assertPlainDeep(v, `${path}[${i}]`));
  } else if (x !== null && typeof x === "object") {
    assert.ok(isPlain(x), `${path} is not a plain object`);
    for (const [k, v] of Object.entries(x)) assertPlainDeep(v, `${path}.${k}`);
  } else {
    assert.notEqual(x, undefined, `${path} is undefined`);
  }
}

export function defineSuite(api, label) {
  describe(`turnwire (${label})`, () => {
    test("exports the API", () => {
      for (const name of API_NAMES) assert.equal(typeof api[name], "function", name);
      const extra = Object.keys(api).filter((k) => !API_NAMES.includes(k) && k !== "initSync" && k !== "default");
      assert.deepEqual(extra, []);
    });

    describe("every fixture renders byte for byte as the Rust goldens", () => {
      for (const c of cases()) {
        test(c, () => {
          const dir = join(FIXTURES, c);
          const transcriptText = readFileSync(join(dir, "transcript.json"), "utf8");
          const transcript = JSON.parse(transcriptText);
          for (const provider of Object.keys(PROVIDERS)) {
            const where = `${c}/${provider}`;
            const goldenText = readFileSync(join(dir, `${provider}.json`), "utf8");
            const golden = JSON.parse(goldenText);
            // The golden files are exactly JSON.stringify(…, null, 2) of their value, so
            // comparing JSON.stringify output with them compares bytes.
            assert.equal(JSON.stringify(golden, null, 2) + "\n", goldenText, where);
            const options = optionsFor(dir, provider);
            if (golden.error) {
              for (const input of [transcriptText, transcript]) {
                const e = thrown(api, () => api.renderBody(input, options));
                assert.deepEqual({ code: e.code, path: e.path, message: e.message }, golden.error, where);
              }
              continue;
            }
            const out = api.renderForProvider(transcriptText, options);
            assert.equal(JSON.stringify(out, null, 2) + "\n", goldenText, where);
            const expected = Buffer.from(JSON.stringify(golden.body));
            const fromText = api.renderBody(transcriptText, options);
            const fromObject = api.renderBody(transcript, options);
            assert.ok(fromText instanceof Uint8Array, where);
            assert.ok(Buffer.from(fromText).equals(expected), `${where}: body bytes differ from the golden`);
            assert.ok(Buffer.from(fromObject).equals(expected), `${where}: object input gives other bytes`);
            assert.deepEqual(api.validateRequest(provider, fromText, options.model), [], where);
          }
        });
      }
    });

    test("same input, same bytes: text, object, Conversation, repeated calls", () => {
      for (const [provider, model] of Object.entries(PROVIDERS)) {
        const options = { provider, model };
        const first = api.renderBody(HISTORY, options);
        const json = JSON.stringify(HISTORY);
        const c1 = new api.Conversation(HISTORY);
        const c2 = api.Conversation.fromJSON(json);
        const c3 = new api.Conversation();
        for (const m of HISTORY) c3.append(m);
        const c4 = new api.Conversation();
        for (const m of HISTORY) c4.appendJson(JSON.stringify(m));
        const all = [
          api.renderBody(HISTORY, options),
          api.renderBody(json, options),
          new TextEncoder().encode(JSON.stringify(api.renderForProvider(HISTORY, options).body)),
          c1.render(options),
          c2.render(options),
          c3.render(options),
          c4.render(options),
          new TextEncoder().encode(JSON.stringify(c4.renderObject(options).body)),
        ];
        for (const c of [c1, c2, c3, c4]) c.free();
        for (const b of all) assert.ok(Buffer.from(b).equals(Buffer.from(first)), provider);
      }
    });

    test("outputs are plain objects and null stays null", () => {
      const out = api.renderForProvider(HISTORY, ANTHROPIC);
      assertPlainDeep(out);
      for (const x of [out, out.body, out.idMap, out.toolNames, out.diagnostics[0]]) assert.ok(isPlain(x));
      assert.deepEqual(Object.keys(out), ["body", "idMap", "toolNames", "diagnostics"]);
      assert.equal(out.body.messages[1].content[0].input.path, null);
      assert.deepEqual(out.idMap, { hist_tool_1: "toolu_1", hist_tool_2: "toolu_2" });
      assert.deepEqual(out.toolNames, { "fs.read": "fs_read" });
      assert.equal(out.diagnostics[0].code, "synthetic_result_added");
      assert.equal(out.diagnostics[0].callId, "hist_tool_2");
      assert.equal(out.diagnostics[0].emittedId, "toolu_2");
      const n = api.normalize(HISTORY, ANTHROPIC);
      assertPlainDeep(n);
      assert.equal(n.transcript[1].metadata.turn, null);
      const c = new api.Conversation(HISTORY);
      const j = c.toJSON();
      c.free();
      assertPlainDeep(j);
      assert.deepEqual(j, HISTORY);
      assertPlainDeep(api.validateRequest("anthropic", { messages: [] }));
    });

    test("errors are TurnwireErrors with a stable code and the JSON path", () => {
      const good = HISTORY;
      const cases = [
        [() => api.renderBody("[{", ANTHROPIC), "invalid_json", "$"],
        [() => api.renderBody(42, ANTHROPIC), "invalid_type", "$"],
        [() => api.renderBody(undefined, ANTHROPIC), "invalid_type", "$"],
        [() => api.renderBody([{ speaker: "robot", blocks: [] }], ANTHROPIC), "invalid_value", "$[0].speaker"],
        [() => api.renderForProvider([{ speaker: "ai" }], ANTHROPIC), "missing_field", "$[0].blocks"],
        [() => api.renderBody({ messages: [{ speaker: "ai", blocks: [{ type: "tool_call", name: "f" }] }] }, OPENAI), "missing_field", "$.messages[0].blocks[0].id"],
        [() => api.renderBody([{ speaker: "ai", blocks: [{ type: "text", text: 1n }] }], OPENAI), "invalid_type", "$"],
        [() => api.renderBody(good, { provider: "bard", model: "m" }), "unknown_provider", "$.provider"],
        [() => api.renderBody(good, { provider: "anthropic" }), "invalid_value", "$"],
        [() => api.renderBody(good, { ...ANTHROPIC, bogus: 1 }), "invalid_value", "$"],
        [() => api.renderBody(good, { ...ANTHROPIC, model: " " }), "invalid_value", "$.model"],
        [() => api.renderBody(good, { ...ANTHROPIC, maxTokens: 0 }), "invalid_value", "$.maxTokens"],
        [() => api.renderBody(good, { ...ANTHROPIC, extra: { messages: [] } }), "invalid_value", "$.extra.messages"],
        [() => api.renderBody(good, { ...OPENAI, model: "gpt-unknown", strictModels: true }), "unsupported_model", "$.model"],
        [() => api.renderBody(good), "invalid_type", "$"],
        [() => api.renderBody([], ANTHROPIC), "empty_transcript", "$"],
        [() => api.normalize(good, { ...ANTHROPIC, maxTokens: 0 }), "invalid_value", "$.maxTokens"],
        [() => api.validateRequest("bard", {}), "unknown_provider", "$.provider"],
        [() => api.validateRequest(7, {}), "invalid_type", "$.provider"],
        [() => api.validateRequest("anthropic", "{nope"), "invalid_json", "$"],
        [() => api.validateRequest("anthropic", new TextEncoder().encode("[")), "invalid_json", "$"],
        [() => api.projectToolId("gemini", "x"), "invalid_value", "$"],
        [() => api.projectToolId({ compat: { maxLen: 5 } }, "x"), "invalid_value", "$.compat.maxLen"],
        [() => api.projectToolIds("openai", [{ name: "x" }]), "invalid_value", "$"],
        [() => new api.Conversation("[1]"), "invalid_type", "$[0]"],
        [() => api.Conversation.fromJSON("{"), "invalid_json", "$"],
      ];
      for (const [f, code, path] of cases) {
        const e = thrown(api, f);
        assert.deepEqual([e.code, e.path], [code, path], `${f}: ${e.message}`);
        assert.ok(e.stack.includes("TurnwireError"));
      }
      const c = new api.Conversation(good);
      const e = thrown(api, () => c.append({ speaker: "ai", blocks: [{ type: "tool_call", id: 5, name: "f" }] }));
      assert.deepEqual([e.code, e.path], ["invalid_type", "$[4].blocks[0].id"]);
      thrown(api, () => c.appendJson("{"));
      thrown(api, () => c.render({ provider: "bard", model: "m" }));
      assert.equal(c.length, good.length, "a failed append leaves the conversation unchanged");
      c.free();
      assert.equal(api.isTurnwireError(new Error("x")), false);
      assert.equal(api.isTurnwireError({ name: "TurnwireError", code: "x", path: "$" }), false);
      assert.equal(api.isTurnwireError(null), false);
      assert.equal(api.isTurnwireError("TurnwireError"), false);
    });

    test("1,000 bad inputs, then a good call works and memory did not grow", () => {
      const expected = api.renderBody(HISTORY, ANTHROPIC);
      const conv = new api.Conversation(HISTORY);
      const bad = [
        () => api.renderBody("[{", ANTHROPIC),
        () => api.renderBody([{ speaker: "robot", blocks: [] }], ANTHROPIC),
        () => api.renderForProvider([{ speaker: "ai" }], ANTHROPIC),
        () => api.renderBody(HISTORY, { provider: "bard", model: "m" }),
        () => api.renderBody(HISTORY, { ...ANTHROPIC, thinking: { enabled: true, budgetTokens: 9999 }, maxTokens: 100 }),
        () => api.normalize(42, ANTHROPIC),
        () => api.validateRequest("anthropic", "{nope"),
        () => api.projectToolIds("openai", [{ name: "x" }]),
        () => new api.Conversation("[1]"),
        () => conv.append({ speaker: "human", blocks: "x" }),
        () => conv.render({ provider: "anthropic", model: "" }),
        () => api.renderBody([], ANTHROPIC),
      ];
      let before = 0;
      for (let i = 0; i < 1000; i++) {
        if (i === 100) before = api.wasmMemoryBytes();
        thrown(api, bad[i % bad.length]);
      }
      assert.equal(api.wasmMemoryBytes(), before, "failed calls must not leak wasm memory");
      assert.ok(Buffer.from(api.renderBody(HISTORY, ANTHROPIC)).equals(Buffer.from(expected)));
      assert.ok(Buffer.from(conv.render(ANTHROPIC)).equals(Buffer.from(expected)));
      assert.equal(conv.length, HISTORY.length);
      conv.free();
    });

    test("a Conversation survives 10,000 appends", () => {
      const conv = new api.Conversation();
      const n = 10_000;
      for (let i = 0; i < n; i++) {
        if (i % 3 === 0) conv.append({ speaker: "human", blocks: [{ type: "text", text: `step ${i}` }] });
        else if (i % 3 === 1) conv.append({ speaker: "ai", blocks: [{ type: "tool_call", id: `c${i}`, name: "step", parameters: { i } }] });
        else conv.appendJson(JSON.stringify({ speaker: "tool", blocks: [{ type: "tool_response", callId: `c${i - 1}`, toolName: "step", result: `ok ${i}` }] }));
      }
      assert.equal(conv.length, n);
      const out = conv.renderObject(OPENAI);
      assert.equal(out.body.messages.length, n);
      assert.equal(out.diagnostics.length, 0);
      assert.equal(Object.keys(out.idMap).length, Math.floor(n / 3));
      const bytes = conv.render(OPENAI);
      assert.deepEqual(api.validateRequest("openai-chat", bytes), []);
      const copy = api.Conversation.fromJSON(JSON.stringify(conv));
      assert.equal(copy.length, n);
      assert.ok(Buffer.from(copy.render(OPENAI)).equals(Buffer.from(bytes)));
      copy.free();
      conv.free();
    });

    test("1,000 create/free cycles do not grow memory (--expose-gc)", () => {
      assert.equal(typeof globalThis.gc, "function", "run node with --expose-gc");
      const cycle = () => {
        const c = new api.Conversation(HISTORY);
        c.append({ speaker: "ai", blocks: [{ type: "text", text: "done" }] });
        c.render(ANTHROPIC);
        c.renderObject(OPENAI);
        c.toJSON();
        c.free();
      };
      for (let i = 0; i < 100; i++) cycle();
      globalThis.gc();
      const wasm0 = api.wasmMemoryBytes();
      const heap0 = process.memoryUsage().heapUsed;
      for (let i = 0; i < 1000; i++) cycle();
      globalThis.gc();
      const wasm1 = api.wasmMemoryBytes();
      const heap1 = process.memoryUsage().heapUsed;
      assert.equal(wasm1, wasm0, "wasm memory grew across create/free cycles");
      assert.ok(heap1 - heap0 < 4 * 1024 * 1024, `JS heap grew by ${heap1 - heap0} bytes`);
    });

    test("Symbol.dispose frees; use after free throws and the module stays usable", () => {
      const c = new api.Conversation(HISTORY);
      assert.equal(typeof c[Symbol.dispose], "function");
      c[Symbol.dispose]();
      assert.throws(() => c.render(ANTHROPIC));
      assert.equal(api.renderForProvider(HISTORY, ANTHROPIC).idMap.hist_tool_1, "toolu_1");
    });

    test("normalize returns the repaired canonical transcript", () => {
      const withSystem = [{ speaker: "system", blocks: [{ type: "text", text: "be brief" }] }, ...HISTORY];
      const n = api.normalize(withSystem, ANTHROPIC);
      assert.deepEqual(Object.keys(n), ["transcript", "system", "thinkingEnabled", "diagnostics"]);
      assert.deepEqual(n.system, ["be brief"]);
      assert.equal(n.thinkingEnabled, false);
      const responses = n.transcript.flatMap((m) => m.blocks).filter((b) => b.type === "tool_response");
      assert.deepEqual(responses.map((b) => b.callId), ["hist_tool_1", "hist_tool_2"]);
      assert.equal(responses[1].synthetic, "missing_result");
      assert.ok(n.diagnostics.some((d) => d.code === "synthetic_result_added"));
      // what normalize returns renders to the same body (it is already repaired)
      assert.ok(Buffer.from(api.renderBody(n.transcript, ANTHROPIC)).length > 0);
    });

    test("validateRequest takes an object, JSON text or bytes", () => {
      const body = api.renderForProvider(HISTORY, ANTHROPIC).body;
      assert.deepEqual(api.validateRequest("anthropic", body), []);
      assert.deepEqual(api.validateRequest("anthropic", JSON.stringify(body)), []);
      assert.deepEqual(api.validateRequest("anthropic", api.renderBody(HISTORY, ANTHROPIC)), []);
      const broken = { ...body, messages: [{ role: "assistant", content: "hi" }] };
      const v = api.validateRequest("anthropic", broken);
      assert.ok(v.some((x) => x.rule === "ANT-01"), JSON.stringify(v));
      for (const x of v) assert.deepEqual(Object.keys(x), ["rule", "path", "message"]);
    });

    test("tool id helpers project as a render does", () => {
      assert.equal(api.projectToolId("anthropic", "call_abc123", "read"), "toolu_abc123");
      assert.equal(api.projectToolId("openai", "toolu_01ABC"), "call_01ABC");
      assert.equal(api.projectToolId("kimi", "anything", "read"), "functions.read:0");
      assert.deepEqual(api.projectToolIds("kimi", [{ id: "a", name: "read" }, { id: "b", name: "grep" }]), ["functions.read:0", "functions.grep:1"]);
      const [a, b] = api.projectToolIds("mistral", [{ id: "same" }, { id: "same" }]);
      assert.notEqual(a, b);
      for (const id of [a, b]) assert.ok(api.isValidToolId("mistral", id), id);
      const rendered = api.renderForProvider(HISTORY, ANTHROPIC).idMap;
      assert.deepEqual(api.projectToolIds("anthropic", [{ id: "hist_tool_1", name: "grep" }, { id: "hist_tool_2", name: "fs_read" }]), Object.values(rendered));
      assert.equal(api.isValidToolId("openai", "call_" + "x".repeat(36)), false);
      assert.equal(api.isValidToolId({ compat: { maxLen: 20, alphanumeric: true } }, "abc123"), true);
      assert.equal(api.isValidToolId({ compat: { maxLen: 20 } }, "abc123"), false);
    });
  });
}
