// Hostile JavaScript values at the wasm boundary (issue 29, points 4 and 7): a revoked Proxy
// (an immer draft used after `produce`), a Proxy whose traps throw, getters that throw, a
// `toJSON` that throws, typed arrays that lie, callbacks into the object being called, given
// to every method of Conversation, StreamDecoder and StreamRelay and to the free functions.
// Each call either works or throws a TurnwireError (code and path), and the object still works
// afterwards: append, render, toJSON and free. Also: use after free() is a TurnwireError
// `freed`; a frozen or sealed Conversation is given back after a turn; an error quotes a huge
// bad value as a short excerpt with its length. Imports only node:test, node:assert and
// turnwire: runs in Node, Deno and Bun (scripts/test-js.sh steps 4 and 6).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  Conversation, StreamDecoder, StreamRelay, fromRequestBody, isTurnInFlightError, isTurnwireError, normalize, projectToolId,
  createRouter, relayErrorBody, relayWhole, renderBody, runAgent, safeCutPoints, streamTurn, validateRequest,
} from "turnwire";

const human = (text) => ({ speaker: "human", blocks: [{ type: "text", text }] });
const OPTIONS = { provider: "anthropic", model: "claude-sonnet-4-5" };
const EVENT = JSON.stringify({ type: "message_start", message: { id: "msg_1", model: "claude-sonnet-4-5", usage: { input_tokens: 5, output_tokens: 0 } } });

const TRAPS = ["get", "set", "has", "deleteProperty", "ownKeys", "getOwnPropertyDescriptor", "defineProperty", "getPrototypeOf", "setPrototypeOf", "isExtensible", "preventExtensions", "apply", "construct"];
const throwingHandler = () => Object.fromEntries(TRAPS.map((t) => [t, () => { throw new Error(`the ${t} trap threw`); }]));
const revoked = (target) => {
  const { proxy, revoke } = Proxy.revocable(target, {});
  revoke();
  return proxy;
};
const throwing = () => { throw new Error("a getter threw"); };

/** Each hostile value, made fresh for each call. */
const HOSTILE = {
  "a revoked Proxy": () => revoked({}),
  "a revoked Proxy of an array": () => revoked([]),
  "a revoked Proxy of a function": () => revoked(() => {}),
  "a Proxy whose traps throw": () => new Proxy({}, throwingHandler()),
  "a Proxy of an array whose traps throw": () => new Proxy([human("x")], throwingHandler()),
  "an object whose getters throw": () => ({ get speaker() { return throwing(); }, get blocks() { return throwing(); }, get provider() { return throwing(); }, get model() { return throwing(); }, get length() { return throwing(); } }),
  "an object whose toJSON throws": () => ({ toJSON: () => { throw new Error("toJSON threw"); } }),
  "an array whose length throws": () => new Proxy([human("x")], { get: (t, k) => (k === "length" ? throwing() : t[k]) }),
  "an Error whose message getter throws": () => Object.defineProperty(new Error("x"), "message", { get: throwing }),
  "a Uint8Array whose length lies": () => Object.defineProperty(new Uint8Array([123, 125]), "length", { value: 1e9 }),
  "a Uint8Array whose length getter throws": () => Object.defineProperty(new Uint8Array([123, 125]), "length", { get: throwing }),
  "a message with a revoked Proxy inside": () => ({ speaker: "human", blocks: [revoked({})] }),
  "options with a revoked Proxy inside": () => ({ ...OPTIONS, tools: revoked([]) }),
  "a number": () => 42,
  "a symbol": () => Symbol("s"),
  "a bigint": () => 10n,
  "undefined": () => undefined,
};

/** Calls `f`; it works or throws a TurnwireError with a code and a path, nothing else. */
function typedOrFine(what, f) {
  try {
    f();
  } catch (e) {
    assert.ok(isTurnwireError(e), `${what}: threw ${e?.name}: ${e?.message}, not a TurnwireError`);
    assert.equal(typeof e.code, "string", what);
    assert.match(e.path, /^\$/, what);
  }
}

/** The conversation still works: append, render, toJSON; `length` grows by one. */
function assertUsable(c, what) {
  const before = c.length;
  c.append(human("still here"));
  assert.equal(c.length, before + 1, what);
  assert.ok(c.render(OPTIONS).length > 0, what);
  assert.equal(JSON.parse(JSON.stringify(c)).length, before + 1, what);
}

/** Every way a Conversation takes an argument, with `h` in that place. */
const CONVERSATION_CALLS = {
  "new Conversation(h)": (c, h) => new Conversation(h).free(),
  "Conversation.fromJSON(h)": (c, h) => Conversation.fromJSON(h).free(),
  "append(h)": (c, h) => c.append(h),
  "appendJson(h)": (c, h) => c.appendJson(h),
  "render(h)": (c, h) => c.render(h),
  "renderBlob(h)": (c, h) => c.renderBlob(h),
  "renderObject(h)": (c, h) => c.renderObject(h),
  "renderRequest(h)": (c, h) => c.renderRequest(h),
  "at(h)": (c, h) => c.at(h),
  "truncate(h)": (c, h) => c.truncate(h),
  "replace(h, message)": (c, h) => c.replace(h, human("r")),
  "replace(0, h)": (c, h) => c.replace(0, h),
  "splice(h, 0)": (c, h) => c.splice(h, 0),
  "splice(0, h)": (c, h) => c.splice(0, h),
  "splice(1, 0, h)": (c, h) => c.splice(1, 0, h),
  "spliceArray(1, 0, h)": (c, h) => c.spliceArray(1, 0, h),
  "compact(h, 1, summary)": (c, h) => c.compact(h, 1, human("s")),
  "compact(0, 1, h)": (c, h) => c.compact(0, 1, h),
  "compactionRange(h, h)": (c, h) => c.compactionRange(h, h),
  "cacheTargets = h": (c, h) => { c.cacheTargets = h; },
};

describe("a hostile value never bricks a Conversation (issue 29, point 4)", () => {
  for (const [call, f] of Object.entries(CONVERSATION_CALLS)) {
    test(call, () => {
      const c = new Conversation([human("first")]);
      for (const [name, make] of Object.entries(HOSTILE)) {
        typedOrFine(`${call} with ${name}`, () => f(c, make()));
        assertUsable(c, `${call} with ${name}`);
      }
      c.free();
    });
  }

  test("the queries still answer after every hostile call", () => {
    const c = new Conversation([human("first")]);
    for (const make of Object.values(HOSTILE)) typedOrFine("append", () => c.append(make()));
    assert.equal(c.at(0).blocks[0].text, "first");
    assert.deepEqual(c.toolCalls(), []);
    assert.deepEqual(c.openCalls(), []);
    assert.deepEqual(c.safeCutPoints(), [0, 1]);
    assert.equal(c.cacheTargets, 4);
    c.free();
  });
});

describe("a hostile value never bricks a StreamDecoder or a StreamRelay (issue 29, point 4)", () => {
  const DECODER_CALLS = {
    "new StreamDecoder(h)": (d, h) => new StreamDecoder(h).free(),
    "new StreamDecoder(provider, h)": (d, h) => new StreamDecoder("anthropic", h).free(),
    "push(h)": (d, h) => d.push(h),
  };
  for (const [call, f] of Object.entries(DECODER_CALLS)) {
    test(call, () => {
      const d = new StreamDecoder("anthropic", { model: "claude-sonnet-4-5" });
      d.push(EVENT);
      for (const [name, make] of Object.entries(HOSTILE)) {
        typedOrFine(`${call} with ${name}`, () => f(d, make()));
        assert.deepEqual(d.push(JSON.stringify({ type: "ping" })), [], `${call} with ${name}`);
        assert.equal(d.snapshot().message.speaker, "ai", `${call} with ${name}`);
        assert.equal(d.closed, false);
        assert.equal(d.provider, "anthropic");
      }
      assert.equal(d.finish().incomplete, true);
      d.free();
    });
  }

  const RELAY_CALLS = {
    "new StreamRelay(h, to, options)": (r, h) => new StreamRelay(h, "openai-chat", { model: "m", id: "i" }).free(),
    "new StreamRelay(from, to, h)": (r, h) => new StreamRelay("anthropic", "openai-chat", h).free(),
    "push(h)": (r, h) => r.push(h),
  };
  for (const [call, f] of Object.entries(RELAY_CALLS)) {
    test(`StreamRelay ${call}`, () => {
      const r = new StreamRelay("anthropic", "openai-chat", { model: "gpt-5.2", id: "chatcmpl_1" });
      for (const [name, make] of Object.entries(HOSTILE)) {
        typedOrFine(`${call} with ${name}`, () => f(r, make()));
        assert.equal(typeof r.push(JSON.stringify({ type: "ping" })), "string", `${call} with ${name}`);
        assert.equal(r.outcome().message.speaker, "ai");
      }
      assert.equal(typeof r.finish(), "string");
      r.free();
    });
  }
});

describe("a hostile value given to a function leaves the module usable", () => {
  const CALLS = {
    "renderBody(h, options)": (h) => renderBody(h, OPTIONS),
    "renderBody(history, h)": (h) => renderBody([human("x")], h),
    "validateRequest(provider, h)": (h) => validateRequest("anthropic", h),
    "validateRequest(h, body)": (h) => validateRequest(h, {}),
    "fromRequestBody(provider, h)": (h) => fromRequestBody("anthropic", h),
    "normalize(h)": (h) => normalize(h),
    "safeCutPoints(h)": (h) => safeCutPoints(h),
    "projectToolId(h, id)": (h) => projectToolId(h, "call_1"),
    "relayWhole(from, to, h, options)": (h) => relayWhole("anthropic", "openai-chat", h, { model: "m", id: "i" }),
    "relayErrorBody(h, type, message)": (h) => relayErrorBody(h, "overloaded_error", "busy"),
    "relayErrorBody(to, h, message)": (h) => relayErrorBody("anthropic", h, "busy"),
    "relayErrorBody(to, type, h)": (h) => relayErrorBody("anthropic", "overloaded_error", h),
  };
  for (const [call, f] of Object.entries(CALLS)) {
    test(call, () => {
      for (const [name, make] of Object.entries(HOSTILE)) {
        typedOrFine(`${call} with ${name}`, () => f(make()));
        assert.ok(renderBody([human("x")], OPTIONS).length > 0, `${call} with ${name}`);
      }
    });
  }

  test("relayErrorBody takes any value for its strings: a non-string is an invalid_type error (issue 29, point 7)", () => {
    for (const bad of [5, null, {}, [], Symbol("s"), 1n]) {
      assert.throws(() => relayErrorBody("anthropic", bad, "busy"), (e) => isTurnwireError(e) && e.code === "invalid_type");
      assert.throws(() => relayErrorBody("anthropic", "overloaded_error", bad), (e) => isTurnwireError(e) && e.code === "invalid_type");
    }
    assert.equal(relayErrorBody("anthropic", "overloaded_error", "busy").type, "error");
  });
});

describe("calls back into the object from inside a call on it", () => {
  test("another call is a TurnwireError reentrant_call; the outer call finishes", () => {
    const c = new Conversation([human("first")]);
    let inner;
    c.append({
      speaker: "human",
      get blocks() {
        try {
          c.render(OPTIONS);
        } catch (e) {
          inner = e;
        }
        return [{ type: "text", text: "outer" }];
      },
    });
    assert.ok(isTurnwireError(inner) && inner.code === "reentrant_call", String(inner?.message));
    assert.equal(c.at(-1).blocks[0].text, "outer");
    assertUsable(c, "after a reentrant call");
    c.free();
  });

  test("free() from inside a call frees when that call returns", () => {
    const c = new Conversation([human("first")]);
    c.append({ speaker: "human", get blocks() { c.free(); return [{ type: "text", text: "x" }]; } });
    assert.throws(() => c.length, (e) => isTurnwireError(e) && e.code === "freed");
    c.free();
  });
});

describe("use after free() is a TurnwireError `freed` (issue 29, point 7)", () => {
  const freed = (e) => isTurnwireError(e) && e.code === "freed" && e.path === "$" && /free/.test(e.message);
  test("Conversation: every method and accessor; free() again is a no-op", () => {
    const c = new Conversation([human("first")]);
    c.free();
    for (const call of [() => c.append(human("x")), () => c.appendJson("{}"), () => c.render(OPTIONS), () => c.renderBlob(OPTIONS), () => c.renderObject(OPTIONS), () => c.renderRequest(OPTIONS),
      () => c.toJSON(), () => JSON.stringify(c), () => c.length, () => c.cacheTargets, () => { c.cacheTargets = 2; }, () => c.at(0), () => c.truncate(0), () => c.replace(0, human("x")),
      () => c.splice(0, 1), () => c.toolCalls(), () => c.openCalls(), () => c.safeCutPoints(), () => c.compactionRange(), () => c.compact(0, 1, human("s"))]) {
      assert.throws(call, freed, String(call));
    }
    c.free();
    c[Symbol.dispose]?.();
    assert.equal(c.inFlight, false);
  });

  test("StreamDecoder and StreamRelay", () => {
    const d = new StreamDecoder("anthropic");
    d.free();
    for (const call of [() => d.push(EVENT), () => d.snapshot(), () => d.finish(), () => d.closed, () => d.provider]) assert.throws(call, freed, String(call));
    d.free();
    const r = new StreamRelay("anthropic", "openai-chat", { model: "gpt-5.2", id: "chatcmpl_1" });
    r.free();
    for (const call of [() => r.push(EVENT), () => r.finish(), () => r.outcome(), () => r.closed]) assert.throws(call, freed, String(call));
    r.free();
  });

  test("a method called on no object is a TurnwireError too", () => {
    const { append } = Conversation.prototype;
    assert.throws(() => append.call(undefined, human("x")), freed);
    assert.throws(() => append.call({}, human("x")), freed);
  });
});

/** A fetch answering one Anthropic text turn. */
const answering = (text) => async () => new Response([
  { type: "message_start", message: { id: "msg_1", model: "claude-sonnet-4-5", usage: { input_tokens: 5, output_tokens: 0 } } },
  { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
  { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } },
  { type: "content_block_stop", index: 0 },
  { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 2 } },
  { type: "message_stop" },
].map((e) => `data: ${JSON.stringify(e)}\n\n`).join(""), { status: 200, headers: { "content-type": "text/event-stream" } });

describe("a frozen or sealed Conversation and the turn guard (issue 29, point 4)", () => {
  for (const [how, seal] of [["frozen", Object.freeze], ["sealed", Object.seal], ["not extensible", Object.preventExtensions]]) {
    test(`${how}: refused while in flight, given back after the turn`, async () => {
      const c = seal(new Conversation([human("hi")]));
      const turn = streamTurn({ ...OPTIONS, apiKey: "k", conversation: c, fetch: answering("Hello.") });
      assert.equal(c.inFlight, true);
      assert.throws(() => c.append(human("queued")), (e) => isTurnInFlightError(e));
      assert.throws(() => c.free(), (e) => isTurnInFlightError(e));
      const { message } = await turn;
      assert.equal(message.blocks[0].text, "Hello.");
      assert.equal(c.inFlight, false);
      assert.equal(c.length, 2, "the turn's reply was appended");
      c.append(human("thanks"));
      assert.equal(c.length, 3);
      const second = await streamTurn({ ...OPTIONS, apiKey: "k", conversation: c, fetch: answering("Again.") });
      assert.equal(second.message.blocks[0].text, "Again.");
      assert.equal(c.inFlight, false);
      if (how === "frozen") {
        // a frozen handle cannot be marked freed: refused with a typed error, memory released by the GC
        typedOrFine("free() of a frozen conversation", () => c.free());
      } else {
        c.free();
        assert.throws(() => c.length, (e) => isTurnwireError(e) && e.code === "freed");
      }
    });
  }

  test("runAgent on a frozen conversation: the tools' turn and a failed turn give it back", async () => {
    const c = Object.freeze(new Conversation([human("hi")]));
    const events = [
      { type: "message_start", message: { id: "msg_1", model: "claude-sonnet-4-5", usage: { input_tokens: 5, output_tokens: 0 } } },
      { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "toolu_1", name: "echo", input: {} } },
      { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: "{\"x\":1}" } },
      { type: "content_block_stop", index: 0 },
      { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 2 } },
      { type: "message_stop" },
    ];
    let calls = 0;
    const fetch = async () => {
      calls += 1;
      if (calls > 1) throw new Error("offline");
      return new Response(events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join(""), { status: 200, headers: { "content-type": "text/event-stream" } });
    };
    const router = createRouter([{ ...OPTIONS, apiKey: "k", fetch }], { maxAttempts: 1 });
    const tools = [{ name: "echo", execute: (args) => args }];
    const result = await runAgent({ conversation: c, router, tools });
    assert.equal(result.stopped, "error");
    assert.equal(c.inFlight, false);
    assert.equal(c.length, 3, "the call and its result were appended");
    c.append(human("again"));
    assert.equal(c.length, 4);
  });
});

describe("an error quotes a huge bad value as a short excerpt with its length (issue 29, point 7)", () => {
  const big = "x".repeat(4 << 20);
  const CASES = {
    "an unknown provider": () => renderBody([human("x")], { provider: big, model: "m" }),
    "a decoder's provider": () => new StreamDecoder(big),
    "an unknown speaker": () => renderBody([{ speaker: big, blocks: [] }], OPTIONS),
    "an unknown option": () => renderBody([human("x")], { ...OPTIONS, [big]: 1 }),
    "a bad option value": () => renderBody([human("x")], { ...OPTIONS, toolChoice: big }),
    "a bad block type": () => renderBody([{ speaker: "human", blocks: [{ type: big }] }], OPTIONS),
    "an imported role": () => fromRequestBody("openai-chat", { model: "m", messages: [{ role: big, content: "x" }] }),
  };
  for (const [what, f] of Object.entries(CASES)) {
    test(what, () => {
      assert.throws(f, (e) => {
        assert.ok(isTurnwireError(e), `${e?.name}: ${String(e?.message).slice(0, 200)}`);
        assert.ok(e.message.length < 2000, `${what}: a message of ${e.message.length} characters: ${e.message.slice(0, 200)}…`);
        return true;
      });
    });
  }
  test("the excerpt says how long the value was", () => {
    let message = "";
    try {
      renderBody([{ speaker: big, blocks: [] }], OPTIONS);
    } catch (e) {
      message = String(e.message);
    }
    assert.ok(message.length < 2000 && /xxxx/.test(message) && /4194304/.test(message.replace(/[,_ ]/g, "")), message.slice(0, 300));
  });
});
