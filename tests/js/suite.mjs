// The one JS suite. Every runtime runs it against the packed package installed into a scratch
// consumer (scripts/test-js.sh): Node ESM and CJS under node:test, and Deno, Bun, workerd and
// headless Chromium under tests/js/runtimes/harness.mjs. It imports nothing, so that it loads
// unchanged in a browser page and a worker (its imports, stream-suite.mjs, the streaming half of
// it, repair-suite.mjs and late-2026-suite.mjs, are shaped the same way): `defineSuite(api, label, host)` gets the module
// namespace (or `require()` result) of whichever entry the runner loaded, and the host's
//   describe, test        node:test's, or the harness's (same signatures, `{ skip }` included)
//   assert                node:assert/strict, or tests/js/runtimes/assert.mjs where it is missing
//   fixtures              tests/fixtures as [{ name, files: { "transcript.json": text, … } }], then the
//                         golden streams as [{ name, stream: { provider, case }, files }], then the
//                         SigV4 cases as [{ name, sigv4: { case }, files }] (fixtures.mjs)
//   mock                  optional: { baseURLs: { <provider>: url } } of strict mock providers that
//                         run.mjs started on 127.0.0.1 (Chromium, workerd), for streamTurn end to end
//   gc, heapUsed          optional: where the runtime can force a collection and read its heap
//   report(key, value)    optional: receives the digest of every rendered body

import { MODELS } from "./models.mjs";
import { defineLate2026Suite } from "./late-2026-suite.mjs";
import { defineRepairSuite } from "./repair-suite.mjs";
import { defineSigV4Suite } from "./sigv4-suite.mjs";
import { defineStreamSuite } from "./stream-suite.mjs";

/** The API every entry exports (the ESM entries also re-export the glue's `initSync`). */
export const API_NAMES = [
  "addUsage",
  "compact",
  "contextUsage",
  "contextWindow",
  "Conversation",
  "cost",
  "createRouter",
  "fromAiSdk",
  "fromAnthropic",
  "fromGemini",
  "fromOpenAIChat",
  "fromPiAi",
  "fromRequestBody",
  "fromResponsesInput",
  "isProviderError",
  "isTurnInFlightError",
  "isTurnwireError",
  "isValidToolId",
  "JsonArrayParser",
  "normalize",
  "ProviderError",
  "projectToolId",
  "providerOfModel",
  "projectToolIds",
  "providerRequest",
  "relayErrorBody",
  "relayWhole",
  "repairModelMessages",
  "repairRequestBody",
  "repairingFetch",
  "renderBody",
  "runAgent",
  "safeCutPoints",
  "saveSession",
  "loadSession",
  "memoryStore",
  "mergeUsage",
  "kvStore",
  "indexedDbStore",
  "redisStore",
  "SessionStoreError",
  "isSessionStoreError",
  "runToolCall",
  "runToolCalls",
  "renderForProvider",
  "renderCountTokens",
  "countTokensRequest",
  "renderRequest",
  "SseParser",
  "StreamDecoder",
  "StreamRelay",
  "streamTurn",
  "toAiSdk",
  "toolDeclarations",
  "toPiAi",
  "TurnInFlightError",
  "turnwireMiddleware",
  "validateRequest",
  "wasmMemoryBytes",
  "memoryStats",
  "setMemoryBudget",
  "signAwsRequest",
];

/** The exports that are not functions: objects, and the streaming limits' defaults. */
export const API_VALUES = ["DEFAULT_BASE_URLS"];
export const API_NUMBERS = [
  "AFTER_DONE_GRACE_MS",
  "DEFAULT_IDLE_TIMEOUT_MS",
  "DEFAULT_MAX_ERROR_BODY_BYTES",
  "DEFAULT_MAX_EVENT_BYTES",
  "DEFAULT_MAX_REPLY_BYTES",
  "DEFAULT_TURN_TIMEOUT_MS",
  "MAX_RETRY_AFTER_MS",
];

/**
 * Calls `check(fixture, provider, options, bytes)` for every fixture and provider whose golden
 * is a body (not an error), with the body `renderBody` writes; returns how many it checked.
 */
function eachRendered(api, fixtures, check) {
  let checked = 0;
  for (const fixture of fixtures) {
    for (const provider of Object.keys(PROVIDERS)) {
      const options = optionsFor(fixture, provider);
      let bytes;
      try {
        bytes = api.renderBody(fixture.files["transcript.json"], options);
      } catch {
        continue; // the goldens that are errors
      }
      check(fixture, provider, options, bytes);
      checked++;
    }
  }
  return checked;
}

/** The transcript fixtures (the golden streams are the others). */
export const transcriptFixtures = (fixtures) => fixtures.filter((f) => !f.stream && !f.sigv4);

/** Provider names and the model the Rust golden test renders each with (reference_model). */
const PROVIDERS = MODELS;

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

const encoder = new TextEncoder();

/** Byte equality of two Uint8Arrays (Buffer is Node's; this runs everywhere). */
export function bytesEqual(a, b) {
  if (!(a instanceof Uint8Array) || !(b instanceof Uint8Array) || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function concat(chunks) {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

async function sha256Hex(bytes) {
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A fixture's file parsed as JSON, or undefined when the fixture has no such file. */
function fixtureJson(fixture, file) {
  const text = fixture.files[file];
  return text === undefined ? undefined : JSON.parse(text);
}

/** The options tests/golden.rs uses: provider + reference model, options.json, options.<p>.json. */
export function optionsFor(fixture, provider) {
  return {
    provider,
    model: PROVIDERS[provider],
    ...fixtureJson(fixture, "options.json"),
    ...fixtureJson(fixture, `options.${provider}.json`),
  };
}

/**
 * What the digest covers, in a fixed order: for every fixture (sorted by name) and every provider
 * (in PROVIDERS order) a line `<fixture>/<provider>`, then either the body bytes or
 * `error {"code":…,"path":…,"message":…}`, then a newline. `outcome(fixture, provider)` returns
 * `{ body: Uint8Array }` or `{ error: { code, path, message } }`.
 */
async function digestOf(fixtures, outcome) {
  const chunks = [];
  for (const fixture of transcriptFixtures(fixtures).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    for (const provider of Object.keys(PROVIDERS)) {
      chunks.push(encoder.encode(`${fixture.name}/${provider}\n`));
      const o = outcome(fixture, provider);
      if (o.body) chunks.push(o.body);
      else chunks.push(encoder.encode(`error ${JSON.stringify({ code: o.error.code, path: o.error.path, message: o.error.message })}`));
      chunks.push(encoder.encode("\n"));
    }
  }
  return sha256Hex(concat(chunks));
}

/** SHA-256 (hex) over every body `api.renderBody` writes for the fixtures (JSON text input). */
export function bodiesDigest(api, fixtures) {
  return digestOf(fixtures, (fixture, provider) => {
    try {
      return { body: api.renderBody(fixture.files["transcript.json"], optionsFor(fixture, provider)) };
    } catch (error) {
      if (!api.isTurnwireError(error)) throw error;
      return { error };
    }
  });
}

/** The same digest over the Rust goldens (tests/fixtures/<case>/<provider>.json). */
export function goldenDigest(fixtures) {
  return digestOf(fixtures, (fixture, provider) => {
    const golden = fixtureJson(fixture, `${provider}.json`);
    return golden.error ? { error: golden.error } : { body: encoder.encode(JSON.stringify(golden.body)) };
  });
}

function isPlain(x) {
  return x !== null && typeof x === "object" && Object.getPrototypeOf(x) === Object.prototype;
}

export function defineSuite(api, label, host) {
  const { describe, test, assert } = host;
  assert.ok(Array.isArray(host.fixtures) && host.fixtures.length > 0, "the host must pass the fixtures");
  const fixtures = transcriptFixtures(host.fixtures);

  /** Calls `f`, which must throw a TurnwireError; returns it. */
  function thrown(f) {
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

  describe(`turnwire (${label})`, () => {
    test("exports the API", () => {
      for (const name of API_NAMES) assert.equal(typeof api[name], "function", name);
      for (const name of API_VALUES) assert.equal(typeof api[name], "object", name);
      for (const name of API_NUMBERS) assert.equal(typeof api[name], "number", name);
      const extra = Object.keys(api).filter((k) => ![...API_NAMES, ...API_VALUES, ...API_NUMBERS].includes(k) && k !== "initSync" && k !== "default");
      assert.deepEqual(extra, []);
    });

    describe("every fixture renders byte for byte as the Rust goldens", () => {
      for (const fixture of fixtures) {
        const c = fixture.name;
        test(c, () => {
          const transcriptText = fixture.files["transcript.json"];
          const transcript = JSON.parse(transcriptText);
          for (const provider of Object.keys(PROVIDERS)) {
            const where = `${c}/${provider}`;
            const goldenText = fixture.files[`${provider}.json`];
            const golden = JSON.parse(goldenText);
            // The golden files are exactly JSON.stringify(…, null, 2) of their value, so
            // comparing JSON.stringify output with them compares bytes.
            assert.equal(JSON.stringify(golden, null, 2) + "\n", goldenText, where);
            const options = optionsFor(fixture, provider);
            if (golden.error) {
              for (const input of [transcriptText, transcript]) {
                const e = thrown(() => api.renderBody(input, options));
                assert.deepEqual({ code: e.code, path: e.path, message: e.message }, golden.error, where);
              }
              continue;
            }
            const out = api.renderForProvider(transcriptText, options);
            assert.equal(JSON.stringify(out, null, 2) + "\n", goldenText, where);
            const expected = encoder.encode(JSON.stringify(golden.body));
            const fromText = api.renderBody(transcriptText, options);
            const fromObject = api.renderBody(transcript, options);
            assert.ok(fromText instanceof Uint8Array, where);
            assert.ok(bytesEqual(fromText, expected), `${where}: body bytes differ from the golden`);
            assert.ok(bytesEqual(fromObject, expected), `${where}: object input gives other bytes`);
            assert.deepEqual(api.validateRequest(provider, fromText, options.model), [], where);
            // renderRequest: the body as text and the rest of the result, stateless and through
            // a Conversation (its second render goes through the cache)
            const request = api.renderRequest(transcriptText, options);
            const convo = new api.Conversation(transcript);
            const requests = [request, convo.renderRequest(options), convo.renderRequest(options)];
            convo.free();
            for (const r of requests) {
              assert.equal(r.body, JSON.stringify(golden.body), `${where}: renderRequest body`);
              const { body: _body, ...rest } = golden;
              const headers = r.headers === undefined ? {} : { headers: r.headers };
              assert.deepEqual({ idMap: r.idMap, toolNames: r.toolNames, diagnostics: r.diagnostics, ...headers }, rest, where);
            }
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
        for (const b of all) assert.ok(bytesEqual(b, first), provider);
      }
    });

    test("objects out keep every character: they cross from wasm as pure-ASCII JSON (issue 12)", () => {
      const scripts = "é ß ø — “quotes” 漢字かな 한국어 עברית العربية 😀👍🏽 \u2028\u2029 \uFFFD \u0000\u001f \\ \" end";
      const history = [
        { speaker: "human", blocks: [{ type: "text", text: `read ${scripts}` }] },
        { speaker: "ai", blocks: [{ type: "text", text: scripts }, { type: "tool_call", id: "c1", name: "läs_fil", parameters: { "pfad ü": scripts, n: [1.5, "😀"] } }] },
        { speaker: "tool", blocks: [{ type: "tool_response", callId: "c1", toolName: "läs_fil", result: scripts.repeat(3) }] },
        { speaker: "human", blocks: [{ type: "text", text: "und? 🙂" }] },
      ];
      for (const [provider, model] of Object.entries(PROVIDERS)) {
        const options = { provider, model };
        const bytes = api.renderBody(history, options);
        const out = api.renderForProvider(history, options);
        assert.deepEqual(out.body, JSON.parse(new TextDecoder().decode(bytes)), provider);
        const request = api.renderRequest(history, options);
        assert.deepEqual({ ...out, body: undefined }, { ...request, body: undefined }, provider);
        const c = new api.Conversation(history);
        assert.deepEqual(c.renderObject(options).body, out.body, provider);
        assert.deepEqual(c.toJSON(), history, provider);
        c.free();
      }
      assert.equal(api.normalize(history, OPENAI).transcript[1].blocks[0].text, scripts);
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
        [() => api.renderBody("[{", ANTHROPIC), "invalid_json", "$[0]"],
        [() => api.renderBody(42, ANTHROPIC), "invalid_type", "$"],
        [() => api.renderBody(undefined, ANTHROPIC), "invalid_type", "$"],
        [() => api.renderBody([{ speaker: "robot", blocks: [] }], ANTHROPIC), "invalid_value", "$[0].speaker"],
        [() => api.renderForProvider([{ speaker: "ai" }], ANTHROPIC), "missing_field", "$[0].blocks"],
        [() => api.renderBody({ messages: [{ speaker: "ai", blocks: [{ type: "tool_call", name: "f" }] }] }, OPENAI), "missing_field", "$.messages[0].blocks[0].id"],
        [() => api.renderBody([{ speaker: "ai", blocks: [{ type: "text", text: 1n }] }], OPENAI), "invalid_type", "$[0].blocks[0].text"],
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
        const e = thrown(f);
        assert.deepEqual([e.code, e.path], [code, path], `${f}: ${e.message}`);
        assert.ok(e.stack.includes("TurnwireError"));
      }
      const c = new api.Conversation(good);
      const e = thrown(() => c.append({ speaker: "ai", blocks: [{ type: "tool_call", id: 5, name: "f" }] }));
      assert.deepEqual([e.code, e.path], ["invalid_type", "$[4].blocks[0].id"]);
      thrown(() => c.appendJson("{"));
      thrown(() => c.render({ provider: "bard", model: "m" }));
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
        thrown(bad[i % bad.length]);
      }
      assert.equal(api.wasmMemoryBytes(), before, "failed calls must not leak wasm memory");
      assert.ok(bytesEqual(api.renderBody(HISTORY, ANTHROPIC), expected));
      assert.ok(bytesEqual(conv.render(ANTHROPIC), expected));
      assert.equal(conv.length, HISTORY.length);
      conv.free();
    });

    test("non-strings where strings belong are invalid_type errors naming the argument, never a trap or a leak (issue 15)", () => {
      const expected = api.renderBody(HISTORY, ANTHROPIC);
      const conv = new api.Conversation(HISTORY);
      const arrayLike = { length: 1_000_000 };
      const decoder = new api.StreamDecoder("anthropic");
      const cases = [
        ["event", () => decoder.push(123)],
        ["event", () => decoder.push(arrayLike)],
        ["id", () => api.projectToolId("openai", 123)],
        ["tool", () => api.projectToolId("openai", "call_1", 5)],
        ["id", () => api.isValidToolId("openai", [1, 2])],
        ["id", () => api.isValidToolId("openai", arrayLike)],
        ["json", () => conv.appendJson(123)],
        ["json", () => conv.appendJson(arrayLike)],
        ["model", () => api.validateRequest("anthropic", {}, 456)],
      ];
      let before = 0;
      for (let i = 0; i < 900; i++) {
        if (i === 90) before = api.wasmMemoryBytes();
        const [name, f] = cases[i % cases.length];
        const e = thrown(f);
        assert.ok(api.isTurnwireError(e), `${name}: ${e}`);
        assert.equal(e.code, "invalid_type", name);
        assert.match(e.message, new RegExp(`\`${name}\` must be a string`), name);
      }
      assert.equal(api.wasmMemoryBytes(), before, "failed calls must not leak wasm memory");
      assert.equal(api.projectToolId("openai", "call_1", null), api.projectToolId("openai", "call_1"));
      assert.ok(bytesEqual(conv.render(ANTHROPIC), expected));
      assert.deepEqual(decoder.push('{"type":"ping"}'), []);
      decoder.free();
      conv.free();
    });

    test("renderBlob: the body as a Blob whose bytes are render()'s, turn after turn, for two targets (issue 12)", async () => {
      const conv = new api.Conversation();
      const targets = [ANTHROPIC, { provider: "openai-chat", model: "gpt-5.2" }];
      const turns = [];
      for (let t = 0; t < 12; t++) {
        turns.push({ speaker: "human", blocks: [{ type: "text", text: `task ${t} ✓` }] });
        turns.push({ speaker: "ai", blocks: [{ type: "tool_call", id: `call_${t}`, name: "read_file", parameters: { path: `f${t}.rs` } }] });
        turns.push({ speaker: "tool", blocks: [{ type: "tool_response", callId: `call_${t}`, toolName: "read_file", result: `contents ${t} "quoted"\n` }] });
        turns.push({ speaker: "ai", blocks: [{ type: "text", text: `done ${t}` }] });
      }
      for (const m of turns) {
        conv.append(m);
        for (const o of targets) {
          const blob = conv.renderBlob(o);
          const bytes = new Uint8Array(await blob.arrayBuffer());
          assert.ok(bytesEqual(bytes, conv.render(o)), `${o.provider} after ${conv.length} messages`);
          assert.equal(blob.size, bytes.length);
        }
      }
      conv.free();
    });

    test("cacheTargets: 4 by default, settable, a typed error for a bad value (issue 15)", () => {
      const conv = new api.Conversation(HISTORY);
      assert.equal(conv.cacheTargets, 4);
      conv.cacheTargets = 8;
      assert.equal(conv.cacheTargets, 8);
      for (const bad of [0, -1, "8", NaN, null]) {
        const e = thrown(() => {
          conv.cacheTargets = bad;
        });
        assert.ok(api.isTurnwireError(e), String(bad));
        assert.equal(e.code, "invalid_type");
      }
      assert.equal(conv.cacheTargets, 8);
      for (const provider of ["anthropic", "openai-chat", "gemini", "mistral", "kimi", "deepseek"]) conv.render({ provider, model: "m" });
      assert.ok(bytesEqual(conv.render(ANTHROPIC), api.renderBody(HISTORY, ANTHROPIC)));
      conv.free();
    });

    test("out of memory is a typed error under a budget the test sets; the conversation stays usable (issue 15)", () => {
      const start = api.memoryStats();
      assert.equal(start.budgetBytes, 2 * 1024 ** 3, "2 GiB by default");
      for (const bad of [-1, "8", NaN, undefined]) {
        const e = thrown(() => api.setMemoryBudget(bad));
        assert.ok(api.isTurnwireError(e), String(bad));
        assert.equal(e.code, "invalid_type");
      }
      const filler = "lorem ipsum ".repeat(2000);
      const turns = [];
      for (let i = 0; i < 40; i++) {
        turns.push({ speaker: "human", blocks: [{ type: "text", text: `${i} ${filler}` }] });
        turns.push({ speaker: "ai", blocks: [{ type: "tool_call", id: `call_${i}`, name: "read", parameters: { path: `f${i}` } }] });
        turns.push({ speaker: "tool", blocks: [{ type: "tool_result", call_id: `call_${i}`, content: [{ type: "text", text: filler }] }] });
      }
      const conv = new api.Conversation(turns);
      conv.cacheTargets = 8;
      const json = JSON.stringify(conv);
      const decoder = new api.StreamDecoder("anthropic", { model: "claude-sonnet-4-5" });
      try {
        decoder.push('{"type":"message_start","message":{"id":"m","role":"assistant","content":[],"usage":{"input_tokens":1,"output_tokens":0}}}');
        decoder.push('{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}');
        // A budget of what is in use now plus 256 KiB: one render of ~1 MB of history outgrows it.
        api.setMemoryBudget(api.memoryStats().liveBytes + 256 * 1024);
        const e = thrown(() => {
          for (const provider of Object.keys(PROVIDERS)) conv.render({ provider, model: PROVIDERS[provider] });
        });
        assert.ok(api.isTurnwireError(e), String(e));
        assert.equal(e.code, "out_of_memory");
        assert.equal(e.path, "$");
        assert.match(e.message, /over the budget of \d+ bytes/);
        assert.match(e.message, /its 120 messages are intact/);
        // Usable: reads work, appends and event decoding fail cleanly while memory is short…
        assert.equal(conv.length, 120);
        assert.equal(JSON.stringify(conv), json);
        api.setMemoryBudget(0);
        const append = thrown(() => conv.append({ speaker: "human", blocks: [{ type: "text", text: "more" }] }));
        assert.equal(append?.code, "out_of_memory");
        assert.equal(conv.length, 120);
        const push = thrown(() => decoder.push('{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"kept"}}'));
        assert.equal(push?.code, "out_of_memory");
        // …and with memory again everything renders as a fresh render does; the event was kept.
        api.setMemoryBudget(null);
        assert.equal(api.memoryStats().budgetBytes, null);
        conv.append({ speaker: "human", blocks: [{ type: "text", text: "more" }] });
        const fresh = [...turns, { speaker: "human", blocks: [{ type: "text", text: "more" }] }];
        for (const provider of Object.keys(PROVIDERS)) {
          const options = { provider, model: PROVIDERS[provider] };
          assert.ok(bytesEqual(conv.render(options), api.renderBody(fresh, options)), provider);
        }
        assert.equal(decoder.finish().message.blocks[0].text, "kept");
      } finally {
        api.setMemoryBudget(start.budgetBytes);
        conv.free();
        try {
          decoder.free();
        } catch {
          // finished above
        }
      }
      const stats = api.memoryStats({ resetPeak: true });
      assert.ok(stats.peakBytes >= stats.liveBytes && stats.wasmBytes >= stats.peakBytes, JSON.stringify(stats));
      const after = api.memoryStats();
      assert.ok(after.peakBytes - after.liveBytes < 64 * 1024, `resetPeak starts from what is in use: ${JSON.stringify(after)}`);
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
      assert.ok(bytesEqual(copy.render(OPENAI), bytes));
      copy.free();
      conv.free();
    });

    const cycle = () => {
      const c = new api.Conversation(HISTORY);
      c.append({ speaker: "ai", blocks: [{ type: "text", text: "done" }] });
      c.render(ANTHROPIC);
      c.renderObject(OPENAI);
      c.toJSON();
      c.free();
    };
    const collect = () => host.gc?.();

    test("1,000 create/free cycles do not grow wasm memory", () => {
      for (let i = 0; i < 100; i++) cycle();
      collect();
      const wasm0 = api.wasmMemoryBytes();
      for (let i = 0; i < 1000; i++) cycle();
      collect();
      assert.equal(api.wasmMemoryBytes(), wasm0, "wasm memory grew across create/free cycles");
    });

    // Needs a forced collection and a heap reading: Node (--expose-gc), Deno, Bun, Chromium
    // (--js-flags=--expose-gc, --enable-precise-memory-info); workerd has neither.
    const heapSkip = host.gc && host.heapUsed ? false : `${label} cannot force a collection or read its heap`;
    test("1,000 create/free cycles do not grow the JS heap", { skip: heapSkip }, () => {
      for (let i = 0; i < 100; i++) cycle();
      host.gc();
      const heap0 = host.heapUsed();
      for (let i = 0; i < 1000; i++) cycle();
      host.gc();
      const heap1 = host.heapUsed();
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
      assert.deepEqual(Object.keys(n), ["transcript", "system", "toolChanges", "thinkingEnabled", "diagnostics"]);
      assert.deepEqual(n.toolChanges, []);
      assert.deepEqual(n.system, ["be brief"]);
      assert.equal(n.thinkingEnabled, false);
      const responses = n.transcript.flatMap((m) => m.blocks).filter((b) => b.type === "tool_response");
      assert.deepEqual(responses.map((b) => b.callId), ["hist_tool_1", "hist_tool_2"]);
      assert.equal(responses[1].synthetic, "missing_result");
      assert.ok(n.diagnostics.some((d) => d.code === "synthetic_result_added"));
      // what normalize returns renders to the same body (it is already repaired)
      assert.ok(api.renderBody(n.transcript, ANTHROPIC).length > 0);
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

    test("hosts: providerRequest's URL for Vertex and Bedrock, the host's body envelope, validated for the host (issue 32)", () => {
      const v = api.providerRequest({ provider: "anthropic", model: "claude-sonnet-4-5@20250929", apiKey: "t", host: "vertex", region: "us-east5", project: "p" });
      assert.equal(v.url, "https://us-east5-aiplatform.googleapis.com/v1/projects/p/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict");
      const b = api.providerRequest({ provider: "anthropic", model: "us.anthropic.claude-sonnet-4-5-20250929-v1:0", apiKey: "k", host: "bedrock", region: "us-east-1" });
      assert.equal(b.url, "https://bedrock-runtime.us-east-1.amazonaws.com/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke-with-response-stream");
      assert.equal(b.framing, "event-stream");
      for (const [host, version] of [["vertex", "vertex-2023-10-16"], ["bedrock", "bedrock-2023-05-31"]]) {
        const body = api.renderForProvider(HISTORY, { ...ANTHROPIC, host }).body;
        assert.equal(body.anthropic_version, version, host);
        assert.equal(body.model, undefined, host);
        assert.deepEqual(api.validateRequest("anthropic", body, ANTHROPIC.model, host), [], host);
        assert.ok(api.validateRequest("anthropic", api.renderForProvider(HISTORY, ANTHROPIC).body, ANTHROPIC.model, host).length > 0, host);
      }
      const e = thrown(() => api.providerRequest({ provider: "openai-chat", model: "m", host: "vertex", region: "us-east5", project: "p" }));
      assert.equal(e.code, "invalid_value");
      assert.equal(e.path, "$.host");
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

    test("same inputs, same bytes: the digest of every body equals the goldens' digest", async () => {
      const digest = await bodiesDigest(api, fixtures);
      host.report?.("digest", digest); // reported even when it differs, for the runtimes' table
      assert.equal(digest, await goldenDigest(fixtures));
    });

    test("importers: every fixture's body, read back with fromRequestBody, renders the same bytes (issue 11)", () => {
      const checked = eachRendered(api, fixtures, (fixture, provider, options, bytes) => {
        // Gemini and Converse bodies do not name their model; where a body went (OpenRouter: ORT-02) is the caller's to say
        const source = { ...(provider === "gemini" || provider === "bedrock-converse" ? { model: options.model } : {}), ...(options.endpoint ? { endpoint: options.endpoint } : {}) };
        const imported = api.fromRequestBody(provider, bytes, source);
        const again = api.renderBody(imported.transcript, { ...imported.options, compat: options.compat });
        assert.ok(bytesEqual(again, bytes), `${fixture.name} ${provider}`);
        assert.deepEqual(imported.diagnostics.filter((d) => d.code === "import_opaque"), [], `${fixture.name} ${provider}`);
      });
      assert.ok(checked > 400, String(checked));
    });

    test("AI SDK: a repaired history written as ModelMessage[] and read back renders the same bytes (issue 11)", () => {
      const checked = eachRendered(api, fixtures, (fixture, provider, options, bytes) => {
        const n = api.normalize(fixture.files["transcript.json"], options);
        const history = [...n.system.map((text) => ({ speaker: "system", blocks: [{ type: "text", text }] })), ...n.transcript,
          ...(n.toolChanges.length > 0 ? [{ speaker: "system", blocks: n.toolChanges }] : [])];
        const { messages, diagnostics } = api.toAiSdk(history);
        assert.deepEqual(diagnostics, [], `${fixture.name} ${provider}`);
        const back = api.fromAiSdk(JSON.parse(JSON.stringify(messages)), { provider, model: options.model, endpoint: options.endpoint });
        // GEM-22: read for Gemini, only a turn with Google's signature (or toAiSdk's
        // `turnwire.geminiCallId` mark) is Gemini's and gets its call ids back (as tests/ai_sdk.rs)
        const again = api.renderBody(back.transcript, options);
        assert.ok(bytesEqual(again, bytes), `${fixture.name} ${provider}`);
      });
      assert.ok(checked > 400, String(checked));
      // a call left open before the next user turn (the AI SDK's MissingToolResultsError) is answered
      const dangling = [
        { role: "user", content: "list src" },
        { role: "assistant", content: [{ type: "tool-call", toolCallId: "c1", toolName: "ls", input: {} }] },
        { role: "user", content: "never mind" },
      ];
      const repaired = api.repairModelMessages(dangling, ANTHROPIC);
      assert.deepEqual(repaired.messages.map((m) => m.role), ["user", "assistant", "tool", "user"]);
      assert.equal(repaired.diagnostics[0].code, "synthetic_result_added");
      const bad = thrown(() => api.repairModelMessages([{ role: "robot", content: "x" }], ANTHROPIC));
      assert.deepEqual([bad?.code, bad?.path], ["invalid_value", "$[0].role"]);
    });

    test("pi-ai: a repaired history written as a Context and read back renders the same bytes (issue 11)", () => {
      let uncarried = 0;
      const checked = eachRendered(api, fixtures, (fixture, provider, options, bytes) => {
        const n = api.normalize(fixture.files["transcript.json"], options);
        const history = [...n.system.map((text) => ({ speaker: "system", blocks: [{ type: "text", text }] })), ...n.transcript,
          ...(n.toolChanges.length > 0 ? [{ speaker: "system", blocks: n.toolChanges }] : [])];
        const { context, diagnostics } = api.toPiAi(history);
        if (diagnostics.length > 0) {
          // pi-ai takes text and base64 images only
          assert.ok(diagnostics.every((d) => d.code === "block_omitted" && d.message.startsWith("media")), JSON.stringify(diagnostics));
          uncarried++;
          return;
        }
        const back = api.fromPiAi(JSON.parse(JSON.stringify(context)), { endpoint: options.endpoint });
        assert.ok(bytesEqual(api.renderBody(back.transcript, options), bytes), `${fixture.name} ${provider}`);
      });
      assert.ok(checked - uncarried > 400 && uncarried < 30, `${checked} ${uncarried}`);
    });

    test("importers: provider histories in, typed continuity and typed errors out (issue 11)", () => {
      const anthropic = api.fromAnthropic(
        [
          { role: "user", content: "hi" },
          { role: "assistant", content: [{ type: "thinking", thinking: "t", signature: "sig" }, { type: "tool_use", id: "toolu_1", name: "ls", input: {} }] },
          { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "a.rs" }] },
        ],
        "be brief",
        { model: "claude-sonnet-4-5" },
      );
      assert.deepEqual(anthropic.transcript.map((m) => m.speaker), ["system", "human", "ai", "tool"]);
      assert.equal(anthropic.transcript[2].blocks[0].signature, "sig");
      assert.equal(anthropic.transcript[2].metadata.model, "claude-sonnet-4-5");
      assert.equal(anthropic.options, undefined);
      const chat = api.fromOpenAIChat(
        [
          { role: "user", content: "hi" },
          { role: "assistant", content: null, reasoning_content: "think", tool_calls: [{ id: "call_1", type: "function", function: { name: "ls", arguments: "{}" } }] },
          { role: "tool", tool_call_id: "call_1", content: "a.rs" },
        ],
        { provider: "deepseek", model: "deepseek-reasoner" },
      );
      assert.equal(chat.transcript[1].metadata.provider, "deepseek");
      assert.equal(chat.transcript[1].blocks[0].type, "thinking");
      const responses = api.fromResponsesInput([{ type: "reasoning", id: "rs_1", encrypted_content: "enc", summary: [] }], "be brief");
      assert.equal(responses.transcript[1].blocks[0].encryptedContent, "enc");
      const gemini = api.fromGemini([{ role: "model", parts: [{ functionCall: { name: "ls", args: {} }, thoughtSignature: "c2ln" }] }]);
      assert.equal(gemini.transcript[0].blocks[0].thoughtSignature, "c2ln");
      // typed errors with the JSON path
      const noModel = thrown(() => api.fromRequestBody("gemini", { contents: [] }));
      assert.deepEqual([noModel?.code, noModel?.path], ["missing_field", "$.model"]);
      const badRole = thrown(() => api.fromAnthropic([{ role: "robot", content: "x" }]));
      assert.deepEqual([badRole?.code, badRole?.path], ["invalid_value", "$[0].role"]);
      const badSource = thrown(() => api.fromOpenAIChat([], { provider: "nope" }));
      assert.equal(badSource?.code, "unknown_provider");
      const notJson = thrown(() => api.fromRequestBody("anthropic", "{"));
      assert.equal(notJson?.code, "invalid_json");
    });
  });

  defineRepairSuite(api, label, host);
  defineStreamSuite(api, label, host);
  defineLate2026Suite(api, label, host);
  defineSigV4Suite(api, label, host);
}
