// Histories the package must never refuse (issue 10, points 1 and 2), at the JS boundary, in
// every runtime: JS strings holding unpaired surrogates (raw, not only as JSON escapes), and
// values JSON cannot carry (REQ-915-038). Every body is compared with the bytes written here,
// so each runtime proves the same bytes. Like suite.mjs it imports nothing a browser page or a
// worker could not load. The golden fixture 50-lone-surrogates-everywhere covers JSON text and
// JSON.parse's objects for all eight providers through the main suite.

import { fuzzNonJson } from "./non-json-fuzz.mjs";

const OPENAI = { provider: "openai-chat", model: "gpt-5.2" };
const decoder = new TextDecoder();

function human(text) {
  return { speaker: "human", blocks: [{ type: "text", text }] };
}

/** A call with `parameters` and its result. */
function callWith(parameters) {
  return [
    human("go"),
    { speaker: "ai", blocks: [{ type: "tool_call", id: "c1", name: "run", parameters }] },
    { speaker: "tool", blocks: [{ type: "tool_response", callId: "c1", toolName: "run", result: "ok" }] },
  ];
}

/** The arguments OpenAI Chat got for the call, parsed. */
function sentArguments(api, history) {
  const out = api.renderForProvider(history, OPENAI);
  const call = out.body.messages.find((m) => m.tool_calls).tool_calls[0];
  return { args: JSON.parse(call.function.arguments), out };
}

function repairs(out, code) {
  return out.diagnostics.filter((d) => d.code === code).map((d) => d.path);
}

export function defineRepairSuite(api, label, host) {
  const { describe, test, assert } = host;

  describe(`never refuse a history (${label})`, () => {
    test("a JS string cut mid-emoji (raw lone surrogate) renders for every provider", () => {
      const cut = "file contents 🙂🙂".slice(0, -1); // ends in a lone high surrogate
      assert.equal(cut.isWellFormed?.() ?? false, false);
      const history = [human("read it"), { speaker: "ai", blocks: [{ type: "text", text: cut }] }, human("\uDE00 and?")];
      // the same history as an object, as JSON text with the raw unit, and through a Conversation
      const text = `[${JSON.stringify(history[0])},{"speaker":"ai","blocks":[{"type":"text","text":"${cut}"}]},{"speaker":"human","blocks":[{"type":"text","text":"\uDE00 and?"}]}]`;
      for (const provider of ["anthropic", "openai-chat", "openai-responses", "gemini", "mistral", "kimi", "deepseek", "openai-compatible"]) {
        const options = { provider, model: provider === "gemini" ? "gemini-2.5-pro" : "m" };
        const fromObject = api.renderBody(history, options);
        const fromText = api.renderBody(text, options);
        const c = new api.Conversation();
        c.append(history[0]);
        c.appendJson(JSON.stringify(history[1]).replace("\\ud83d", "\uD83D"));
        c.append(history[2]);
        const fromConversation = c.render(options);
        const out = c.renderObject(options);
        c.free();
        const body = decoder.decode(fromObject);
        assert.ok(body.includes("file contents 🙂\uFFFD"), `${provider}: ${body}`);
        assert.ok(body.includes("\uFFFD and?"), provider);
        assert.equal(decoder.decode(fromText), body, provider);
        assert.equal(decoder.decode(fromConversation), body, provider);
        assert.deepEqual(api.validateRequest(provider, fromObject), [], provider);
        assert.deepEqual(repairs(out, "lone_surrogate_replaced"), ["$[1].blocks[0].text", "$[2].blocks[0].text"], provider);
      }
    });

    test("JSON text that holds a real U+FFFD keeps it unreported; a lone surrogate beside one is still repaired", () => {
      // the text reaches wasm as UTF-8, where a lone surrogate becomes U+FFFD too: a real one
      // must not be mistaken for a repair, and must not hide one
      const real = [human("bad byte \uFFFD here"), { speaker: "ai", blocks: [{ type: "text", text: "ok" }] }, human("fine")];
      const mixed = [human("bad byte \uFFFD here"), { speaker: "ai", blocks: [{ type: "text", text: "ok" }] }, human("x")];
      const mixedText = JSON.stringify(mixed).replace('"x"', '"\uD83D x"');
      for (const provider of ["anthropic", "openai-chat", "gemini"]) {
        const options = { provider, model: provider === "gemini" ? "gemini-2.5-pro" : "m" };
        const clean = api.renderForProvider(JSON.stringify(real), options);
        assert.deepEqual(repairs(clean, "lone_surrogate_replaced"), [], provider);
        assert.ok(JSON.stringify(clean.body).includes("bad byte \uFFFD here"), provider);
        const repaired = api.renderForProvider(mixedText, options);
        assert.deepEqual(repairs(repaired, "lone_surrogate_replaced"), ["$[2].blocks[0].text"], provider);
        assert.ok(JSON.stringify(repaired.body).includes("\uFFFD x"), provider);
      }
    });

    test("validateRequest flags a body with an unpaired surrogate: object, text, raw text, bytes", () => {
      const body = { model: "m", max_tokens: 16, messages: [{ role: "user", content: "cut \uD83D" }] };
      const asText = JSON.stringify(body); // "\ud83d" escaped
      const raw = asText.replace("\\ud83d", "\uD83D"); // the raw unit in a JS string
      for (const input of [body, asText, raw, new TextEncoder().encode(asText)]) {
        const v = api.validateRequest("anthropic", input);
        assert.equal(v.length, 1, JSON.stringify(v));
        assert.equal(v[0].rule, "ANT-22");
        assert.equal(v[0].path, "$.messages[0].content");
        assert.match(v[0].message, /no low surrogate in string/);
      }
    });

    test("circular references become a marker, nothing throws", () => {
      const parameters = { path: "a" };
      parameters.self = parameters;
      parameters.list = [1, parameters];
      const { args, out } = sentArguments(api, callWith(parameters));
      assert.deepEqual(args, {
        path: "a",
        self: "[Circular: $[1].blocks[0].parameters]",
        list: [1, "[Circular: $[1].blocks[0].parameters]"],
      });
      assert.deepEqual(repairs(out, "non_json_value_replaced"), ["$[1].blocks[0].parameters.self", "$[1].blocks[0].parameters.list[1]"]);
      // a circular history (a message pointing at the array) is repaired the same way
      const history = callWith({});
      history[0].metadata = { history };
      const again = api.renderForProvider(history, OPENAI);
      assert.deepEqual(repairs(again, "non_json_value_replaced"), ["$[0].metadata.history"]);
    });

    test("issue 31, circular markers: Conversation.append gives the bytes a stateless render gives", () => {
      const parameters = { path: "a" };
      parameters.self = parameters;
      parameters.list = [1, parameters];
      const history = callWith(parameters);
      for (const provider of ["openai-chat", "anthropic", "gemini"]) {
        const options = { provider, model: provider === "gemini" ? "gemini-2.5-pro" : provider === "anthropic" ? "claude-sonnet-4-5" : "gpt-5.2", maxTokens: 100 };
        const c = new api.Conversation();
        for (const m of history) c.append(m);
        assert.equal(decoder.decode(c.render(options)), decoder.decode(api.renderBody(history, options)), provider);
        assert.ok(decoder.decode(c.render(options)).includes("[Circular: $[1].blocks[0].parameters]"), provider);
        c.free();
      }
    });

    test("BigInt: a number when safe, else its exact decimal text", () => {
      const { args, out } = sentArguments(api, callWith({ small: 42n, big: 12345678901234567890123n, neg: -(2n ** 60n) }));
      assert.deepEqual(args, { small: 42, big: "12345678901234567890123", neg: "-1152921504606846976" });
      assert.equal(repairs(out, "non_json_value_replaced").length, 3);
    });

    test("functions and symbols are left out as JSON.stringify does, and reported", () => {
      const { args, out } = sentArguments(api, callWith({ a: 1, f() {}, s: Symbol("x"), list: [() => 1, Symbol("y"), 2], u: undefined }));
      assert.deepEqual(args, { a: 1, list: [null, null, 2] });
      assert.deepEqual(repairs(out, "non_json_value_replaced"), [
        "$[1].blocks[0].parameters.f",
        "$[1].blocks[0].parameters.s",
        "$[1].blocks[0].parameters.list[0]",
        "$[1].blocks[0].parameters.list[1]",
      ]);
    });

    test("Map, Set, typed arrays, Date, toJSON, NaN, RegExp, Error: as documented", () => {
      const when = new Date(Date.UTC(2026, 10, 25, 12, 0, 0));
      const { args, out } = sentArguments(api, callWith({
        map: new Map([["a", 1], [2, "b"]]),
        set: new Set(["x", "y"]),
        bytes: new Uint8Array([1, 2, 255]),
        when,
        custom: { toJSON: () => ({ id: 7 }) },
        nan: NaN,
        re: /a+/g,
        err: new TypeError("bad"),
      }));
      assert.deepEqual(args, {
        map: { a: 1, 2: "b" },
        set: ["x", "y"],
        bytes: [1, 2, 255],
        when: "2026-11-25T12:00:00.000Z",
        custom: { id: 7 },
        nan: null,
        re: "/a+/g",
        err: { name: "TypeError", message: "bad" },
      });
      // Date and toJSON are JSON.stringify's own behaviour: not repairs
      assert.deepEqual(repairs(out, "non_json_value_replaced"), ["map", "set", "bytes", "nan", "re", "err"].map((k) => `$[1].blocks[0].parameters.${k}`));
    });

    test("a getter that throws is left out, the render goes on", () => {
      const parameters = { ok: 1 };
      Object.defineProperty(parameters, "bad", { enumerable: true, get() { throw new Error("boom"); } });
      const { args, out } = sentArguments(api, callWith(parameters));
      assert.deepEqual(args, { ok: 1 });
      assert.deepEqual(repairs(out, "non_json_value_replaced"), ["$[1].blocks[0].parameters.bad"]);
    });

    test("non-JSON values in options and appended messages are reported with their path", () => {
      const tools = [{ name: "run", parameters: { type: "object", default: 5n } }];
      const out = api.renderForProvider(callWith({}), { ...OPENAI, tools });
      assert.deepEqual(repairs(out, "non_json_value_replaced"), ["$.tools[0].parameters.default"]);
      const c = new api.Conversation();
      for (const m of callWith({ n: 1n })) c.append(m);
      const rendered = c.renderObject(OPENAI);
      c.free();
      assert.deepEqual(repairs(rendered, "non_json_value_replaced"), ["$[1].blocks[0].parameters.n"]);
      assert.equal(rendered.diagnostics.find((d) => d.code === "non_json_value_replaced").messageIndex, 1);
    });

    test("options read again on every call: a changed object renders its change, a converted value is reported each time", () => {
      // the binding keeps the last options it read, by their JSON text: nothing about an object
      // that changed in between, or that needed a conversion, may come from it
      const options = { ...OPENAI, tools: [{ name: "run", parameters: { type: "object" } }] };
      const first = api.renderForProvider(callWith({}), options);
      assert.equal(first.body.tools[0].function.name, "run");
      assert.equal(api.renderForProvider(callWith({}), options).body.tools[0].function.name, "run");
      options.tools[0].name = "walk";
      options.maxTokens = 77;
      const changed = api.renderForProvider(callWith({}), options);
      assert.deepEqual([changed.body.tools[0].function.name, changed.body.max_completion_tokens], ["walk", 77]);
      const converted = { ...OPENAI, tools: [{ name: "run", parameters: { type: "object", default: 5n } }] };
      for (let i = 0; i < 3; i++) {
        const out = api.renderForProvider(callWith({}), converted);
        assert.deepEqual(repairs(out, "non_json_value_replaced"), ["$.tools[0].parameters.default"], `call ${i}`);
      }
      // the same text with and without a conversion (5n and 5): only the first reports one
      const plainFive = { ...OPENAI, tools: [{ name: "run", parameters: { type: "object", default: 5 } }] };
      assert.deepEqual(repairs(api.renderForProvider(callWith({}), plainFive), "non_json_value_replaced"), []);
      assert.equal(repairs(api.renderForProvider(callWith({}), converted), "non_json_value_replaced").length, 1);
      assert.deepEqual(repairs(api.renderForProvider(callWith({}), plainFive), "non_json_value_replaced"), []);
      // a bad option is an error on every call, never a cached success
      for (let i = 0; i < 2; i++) assert.throws(() => api.renderForProvider(callWith({}), { ...OPENAI, maxTokens: "many" }), (e) => api.isTurnwireError(e));
    });

    test("integers beyond 2^64 in arguments given as JSON text keep every digit (point 3)", () => {
      const big = "123456789012345678901234567890";
      const text = JSON.stringify(callWith({ n: 0 })).replace('"n":0', `"n":${big},"m":-9223372036854775809`);
      const argsText = JSON.stringify(callWith(`{"n": ${big}}`));
      for (const provider of ["anthropic", "openai-chat", "gemini", "openai-responses"]) {
        const options = { provider, model: provider === "gemini" ? "gemini-2.5-pro" : "m" };
        for (const input of [text, argsText]) {
          const body = decoder.decode(api.renderBody(input, options)).replaceAll("\\", "");
          assert.ok(body.includes(`"n":${big}`), `${provider}: ${body}`);
        }
        const c = new api.Conversation(text);
        const fromConversation = decoder.decode(c.render(options));
        c.free();
        assert.ok(fromConversation.includes("-9223372036854775809"), provider);
      }
    });

    test("property: random non-JSON values and cut strings, 200 histories × 10 providers (point 7)", () => {
      assert.equal(fuzzNonJson(api, { cases: 200, seed: 20261125 }), 2000);
    });

    test("arguments nested 400 levels deep render for every provider (issue 15: MAX_DEPTH 512)", () => {
      let deep = { leaf: 1 };
      for (let i = 0; i < 400; i++) deep = { x: deep };
      const text = JSON.stringify(callWith(deep));
      for (const provider of ["anthropic", "openai-chat", "openai-responses", "gemini", "mistral", "kimi", "deepseek", "openai-compatible"]) {
        const options = { provider, model: provider === "gemini" ? "gemini-2.5-pro" : "m" };
        const fromObject = decoder.decode(api.renderBody(callWith(deep), options));
        assert.equal(decoder.decode(api.renderBody(text, options)), fromObject, provider);
        assert.ok(fromObject.replaceAll("\\", "").includes('{"leaf":1}'), provider);
      }
    });

    test("errors that remain name the JSON path: too deep, not a transcript", () => {
      let deep = {};
      const root = deep;
      for (let i = 0; i < 600; i++) deep = deep.x = {};
      for (const f of [() => api.renderBody(callWith(root), OPENAI), () => new api.Conversation(callWith(root))]) {
        try {
          f();
          assert.fail("expected an error");
        } catch (e) {
          assert.ok(api.isTurnwireError(e), String(e));
          assert.equal(e.code, "invalid_json");
          assert.ok(e.path.startsWith("$[1].blocks[0].parameters.x.x.x"), e.path);
          assert.match(e.message, /deeper than 512 levels/);
        }
      }
      try {
        api.renderBody(() => 1, OPENAI);
        assert.fail("expected an error");
      } catch (e) {
        assert.ok(api.isTurnwireError(e), String(e));
        assert.equal(e.code, "invalid_type");
      }
    });
  });
}
