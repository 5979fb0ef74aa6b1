// Redirects and secrets (issue 29, items 2, 3 and part of 7), against real servers on 127.0.0.1:
// two servers are two origins. A key (or the conversation) never follows a redirect to another
// origin — streamTurn, repairingFetch and its relay to another API — while a same-origin 307
// still works; a key never appears in an event, a result, an error (message, stack, cause,
// body), a callback argument or a saved session: a planted key is looked for everywhere a routed
// runAgent run with retries and a failover hands back. Runs in Node (node --test), Deno
// (deno test) and Bun (bun test): scripts/test-js.sh steps 4 and 6.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { Conversation, createRouter, isProviderError, repairingFetch, runAgent, saveSession, streamTurn } from "turnwire";

const human = (text) => ({ speaker: "human", blocks: [{ type: "text", text }] });
const sse = (obj) => `data: ${typeof obj === "string" ? obj : JSON.stringify(obj)}\n\n`;

const ANTHROPIC_TEXT = (text) =>
  [
    { type: "message_start", message: { id: "msg_1", model: "claude-sonnet-4-5", usage: { input_tokens: 5, output_tokens: 0 } } },
    { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } },
    { type: "content_block_stop", index: 0 },
    { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 2 } },
    { type: "message_stop" },
  ]
    .map(sse)
    .join("");

const ANTHROPIC_TOOL_CALL = [
  { type: "message_start", message: { id: "msg_2", model: "claude-sonnet-4-5", usage: { input_tokens: 5, output_tokens: 0 } } },
  { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "toolu_1", name: "echo", input: {} } },
  { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"text":"hi"}' } },
  { type: "content_block_stop", index: 0 },
  { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 3 } },
  { type: "message_stop" },
]
  .map(sse)
  .join("");

const GEMINI_WHOLE = { candidates: [{ content: { role: "model", parts: [{ text: "Hello." }] }, finishReason: "STOP" }], usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 2 } };

/** A server on 127.0.0.1 that records every request (method, path, headers, body) and answers with `handler`. */
async function serve(handler) {
  const requests = [];
  const sockets = new Set();
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const request = { method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
    requests.push(request);
    try {
      await handler(req, res, request);
    } catch (e) {
      res.writeHead(599).end(String(e));
    }
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return {
    origin,
    requests,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const servers = [];
const started = async (handler) => {
  const s = await serve(handler);
  servers.push(s);
  return s;
};
after(async () => {
  for (const s of servers) await s.close();
});

/** The second origin: whatever reaches it is a leak. */
const elsewhere = await started((_req, res) => {
  res.writeHead(200, { "content-type": "text/event-stream" });
  res.end(ANTHROPIC_TEXT("stolen"));
});

/** A server that redirects `from` (a path) with `status` to `location`, and streams a reply anywhere else. */
async function redirecting(status, location) {
  return started((req, res) => {
    if (req.url.startsWith("/r/")) {
      res.writeHead(status, location === undefined ? { "content-type": "text/plain" } : { location: typeof location === "function" ? location(req.url) : location });
      res.end("moved");
      return;
    }
    if (/generatecontent/i.test(req.url)) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(GEMINI_WHOLE));
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.end(ANTHROPIC_TEXT("Hello."));
  });
}

const KEY = "sk-PLANTED-0123456789abcdef";

async function settle(promise) {
  try {
    return { result: await promise };
  } catch (error) {
    return { error };
  }
}

/** The error is the typed redirect refusal: no key, no path beyond the origins. */
function assertRefused(error, status, from, to) {
  assert.ok(isProviderError(error), `a ProviderError, got ${error?.stack ?? error}`);
  assert.equal(error.kind, "http");
  assert.equal(error.errorType, "redirect_refused");
  assert.equal(error.retryable, false);
  assert.equal(error.status, status);
  assert.ok(error.message.includes(from), `${error.message} names ${from}`);
  if (to !== undefined) assert.ok(error.message.includes(to), `${error.message} names ${to}`);
  assert.ok(!error.message.includes(KEY) && !String(error.stack).includes(KEY));
}

describe("redirects: streamTurn", () => {
  const providers = [
    ["anthropic", "claude-sonnet-4-5", "x-api-key"],
    ["gemini", "gemini-2.5-pro", "x-goog-api-key"],
    ["openai-chat", "gpt-5.2", "authorization"],
  ];
  for (const status of [307, 308]) {
    for (const [provider, model] of providers) {
      test(`a ${status} to another origin (${provider}) is refused: the other origin gets nothing`, async () => {
        const before = elsewhere.requests.length;
        const a = await redirecting(status, `${elsewhere.origin}/steal`);
        const conversation = new Conversation([human("a secret plan")]);
        const out = await settle(streamTurn({ provider, model, apiKey: KEY, baseURL: `${a.origin}/r`, conversation }));
        assertRefused(out.error, status, a.origin, elsewhere.origin);
        assert.equal(elsewhere.requests.length, before, "not one request reached the other origin");
        assert.equal(a.requests.length, 1);
        assert.equal(conversation.length, 1, "nothing appended");
      });
    }
  }

  for (const [status, why] of [
    [301, "a 301 would turn the POST into a GET"],
    [302, "a 302 would turn the POST into a GET"],
    [303, "a 303 turns the POST into a GET"],
  ]) {
    test(`a same-origin ${status} is refused (${why})`, async () => {
      const a = await redirecting(status, "/moved");
      const out = await settle(streamTurn({ provider: "anthropic", model: "claude-sonnet-4-5", apiKey: KEY, baseURL: `${a.origin}/r`, transcript: [human("hi")] }));
      assertRefused(out.error, status, a.origin);
      assert.equal(a.requests.length, 1, "the redirect was not followed");
    });
  }

  test("a redirect without a Location, or with one that is not a URL, is refused", async () => {
    for (const location of [undefined, "http://[::1"]) {
      const a = await redirecting(307, location);
      const out = await settle(streamTurn({ provider: "anthropic", model: "claude-sonnet-4-5", apiKey: KEY, baseURL: `${a.origin}/r`, transcript: [human("hi")] }));
      assertRefused(out.error, 307, a.origin);
      assert.equal(a.requests.length, 1);
    }
  });

  test("a same-origin 307 and 308 are followed: the same method, headers and body", async () => {
    for (const status of [307, 308]) {
      const a = await redirecting(status, (url) => url.replace("/r/", "/moved/"));
      const conversation = new Conversation([human("hi")]);
      const result = await streamTurn({ provider: "anthropic", model: "claude-sonnet-4-5", apiKey: KEY, baseURL: `${a.origin}/r`, conversation });
      assert.equal(result.message.blocks[0].text, "Hello.");
      assert.equal(a.requests.length, 2);
      const [first, second] = a.requests;
      assert.equal(second.url, "/moved/v1/messages");
      assert.equal(second.method, "POST");
      assert.equal(second.headers["x-api-key"], KEY);
      assert.equal(second.body, first.body);
      assert.ok(second.body.length > 0);
    }
  });

  test("a loop of same-origin redirects stops after a few hops", async () => {
    const a = await redirecting(307, (url) => url);
    const out = await settle(streamTurn({ provider: "anthropic", model: "claude-sonnet-4-5", apiKey: KEY, baseURL: `${a.origin}/r`, transcript: [human("hi")] }));
    assertRefused(out.error, 307, a.origin);
    assert.ok(a.requests.length >= 2 && a.requests.length <= 6, `${a.requests.length} requests`);
  });

  test("a same-origin redirect that then leaves the origin is refused at that hop", async () => {
    let hop = 0;
    const a = await started((req, res) => {
      hop++;
      res.writeHead(307, { location: hop === 1 ? "/r/again" : `${elsewhere.origin}/steal` }).end();
    });
    const before = elsewhere.requests.length;
    const out = await settle(streamTurn({ provider: "gemini", model: "gemini-2.5-pro", apiKey: KEY, baseURL: `${a.origin}/r`, transcript: [human("hi")] }));
    assertRefused(out.error, 307, a.origin, elsewhere.origin);
    assert.equal(elsewhere.requests.length, before);
    assert.equal(a.requests.length, 2);
  });

  test("the router does not retry a refused redirect elsewhere with the key", async () => {
    const a = await redirecting(307, `${elsewhere.origin}/steal`);
    const before = elsewhere.requests.length;
    const router = createRouter([{ provider: "anthropic", model: "claude-sonnet-4-5", apiKey: KEY, baseURL: `${a.origin}/r` }], { maxAttempts: 3 });
    const conversation = new Conversation([human("hi")]);
    const out = await settle(router.turn({ conversation }));
    assertRefused(out.error, 307, a.origin, elsewhere.origin);
    assert.equal(out.error.attempts.length, 1, "not retryable");
    assert.equal(elsewhere.requests.length, before);
  });
});

describe("redirects: repairingFetch and its relay", () => {
  const body = JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 100, messages: [{ role: "user", content: "a secret plan" }] });

  test("a repaired request redirected to another origin is refused; a same-origin 307 is followed", async () => {
    const before = elsewhere.requests.length;
    const a = await redirecting(307, `${elsewhere.origin}/steal`);
    const fetch = repairingFetch();
    const out = await settle(fetch(`${a.origin}/r/v1/messages`, { method: "POST", headers: { "x-api-key": KEY, "content-type": "application/json" }, body }));
    assertRefused(out.error, 307, a.origin, elsewhere.origin);
    assert.equal(elsewhere.requests.length, before);

    const b = await redirecting(307, (url) => url.replace("/r/", "/moved/"));
    const response = await fetch(`${b.origin}/r/v1/messages`, { method: "POST", headers: { "x-api-key": KEY, "content-type": "application/json" }, body });
    assert.equal(response.status, 200);
    await response.text();
    assert.equal(b.requests.length, 2);
    assert.equal(b.requests[1].headers["x-api-key"], KEY);
    assert.equal(b.requests[1].body, b.requests[0].body);
  });

  test("a request it forwards untouched (a model list) is not redirected to another origin either", async () => {
    const before = elsewhere.requests.length;
    const a = await redirecting(302, `${elsewhere.origin}/steal`);
    const out = await settle(repairingFetch()(`${a.origin}/r/v1/models`, { headers: { "x-api-key": KEY } }));
    assertRefused(out.error, 302, a.origin, elsewhere.origin);
    assert.equal(elsewhere.requests.length, before);
    // a same-origin redirect of a GET is followed
    const b = await redirecting(302, "/models");
    const response = await repairingFetch()(`${b.origin}/r/v1/models`, { headers: { "x-api-key": KEY } });
    assert.equal(response.status, 200);
    await response.text();
    assert.equal(b.requests.length, 2);
  });

  test("the relay to another API is refused a redirect to another origin; a same-origin 307 works", async () => {
    const before = elsewhere.requests.length;
    const a = await redirecting(307, `${elsewhere.origin}/steal`);
    const target = { provider: "gemini", model: "gemini-2.5-pro", apiKey: KEY, baseURL: `${a.origin}/r` };
    const out = await settle(repairingFetch({ target })(`${elsewhere.origin}/v1/messages`, { method: "POST", headers: { "x-api-key": "client" }, body }));
    assertRefused(out.error, 307, a.origin, elsewhere.origin);
    assert.equal(elsewhere.requests.length, before);

    const b = await redirecting(307, (url) => url.replace("/r/", "/moved/"));
    const response = await repairingFetch({ target: { ...target, baseURL: `${b.origin}/r` } })(`${elsewhere.origin}/v1/messages`, { method: "POST", headers: { "x-api-key": "client" }, body });
    assert.equal(response.status, 200);
    const answer = await response.json();
    assert.equal(answer.content[0].text, "Hello.");
    assert.equal(b.requests.length, 2);
    assert.equal(b.requests[1].headers["x-goog-api-key"], KEY);
    assert.equal(elsewhere.requests.length, before);
  });
});

describe("a fetch that throws synchronously", () => {
  const throwing = () => {
    throw new TypeError("no network here");
  };

  test("streamTurn: the same typed network error as a failed fetch", async () => {
    const out = await settle(streamTurn({ provider: "anthropic", model: "claude-sonnet-4-5", apiKey: KEY, baseURL: "http://127.0.0.1:9", transcript: [human("hi")], fetch: throwing }));
    assert.ok(isProviderError(out.error), String(out.error));
    assert.equal(out.error.kind, "network");
    assert.equal(out.error.errorType, "network");
    assert.equal(out.error.retryable, true);
    assert.equal(out.error.cause?.message, "no network here");
  });

  test("repairingFetch and its relay: a typed network error", async () => {
    const body = JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 100, messages: [{ role: "user", content: "hi" }] });
    for (const options of [{}, { target: { provider: "gemini", model: "gemini-2.5-pro", apiKey: KEY, baseURL: "http://127.0.0.1:9" } }]) {
      const out = await settle(repairingFetch({ ...options, fetch: throwing })("http://127.0.0.1:9/v1/messages", { method: "POST", headers: { "x-api-key": KEY }, body }));
      assert.ok(isProviderError(out.error), String(out.error));
      assert.equal(out.error.kind, "network");
      assert.equal(out.error.cause?.message, "no network here");
    }
  });
});

describe("secrets in header values and URLs", () => {
  for (const [what, key] of [
    ["a newline", `${KEY}\nInjected: yes`],
    ["a NUL", `${KEY}\0tail`],
    ["a carriage return", `${KEY}\rtail`],
  ]) {
    test(`a key with ${what} is refused before sending, in a typed error without the value`, async () => {
      const a = await redirecting(307, undefined);
      for (const provider of ["anthropic", "openai-chat", "gemini"]) {
        const out = await settle(streamTurn({ provider, model: "m", apiKey: key, baseURL: a.origin, transcript: [human("hi")] }));
        assert.ok(isProviderError(out.error), String(out.error));
        assert.equal(out.error.errorType, "invalid_header");
        assert.equal(out.error.retryable, false);
        assert.equal(deepLeaks(out.error, [KEY, "Injected", "tail"]).length, 0, deepLeaks(out.error, [KEY]).join("\n"));
      }
      const relay = await settle(
        repairingFetch({ target: { provider: "gemini", model: "gemini-2.5-pro", apiKey: key, baseURL: a.origin } })(`${a.origin}/v1/messages`, {
          method: "POST",
          body: JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 10, messages: [{ role: "user", content: "hi" }] }),
        }),
      );
      assert.equal(relay.error?.errorType, "invalid_header");
      assert.deepEqual(deepLeaks(relay.error, [KEY]), []);
      assert.equal(a.requests.length, 0, "nothing was sent");
    });
  }

  test("a base URL with credentials: sent as basic auth, never echoed in the request, messages or provenance", async () => {
    const a = await started((req, res) => {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ type: "error", error: { type: "api_error", message: `bad credentials ${req.headers.authorization} for ${KEY}` } }));
    });
    const baseURL = a.origin.replace("http://", `http://proxy:${KEY}@`);
    const out = await settle(streamTurn({ provider: "anthropic", model: "claude-sonnet-4-5", apiKey: KEY, baseURL, transcript: [human("hi")] }));
    assert.ok(isProviderError(out.error), String(out.error));
    assert.equal(out.error.status, 500);
    assert.equal(a.requests[0].headers.authorization, `Basic ${btoa(`proxy:${KEY}`)}`);
    assert.equal(out.error.request.url, `${a.origin}/v1/messages`);
    assert.deepEqual(deepLeaks(out.error, [KEY, btoa(`proxy:${KEY}`)]), []);

    const b = await redirecting(307, undefined);
    const conversation = new Conversation([human("hi")]);
    const result = await streamTurn({ provider: "gemini", model: "gemini-2.5-pro", baseURL: b.origin.replace("http://", `http://proxy:${KEY}@`), conversation });
    assert.equal(result.request.url.startsWith(b.origin), true);
    assert.deepEqual(deepLeaks([result, conversation.toJSON()], [KEY]), []);
  });

  test("issue 31: streamTurn's default account is a label derived from the key (a truncated SHA-256), never the key; the caller's account wins", async () => {
    const s = await started((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(ANTHROPIC_TEXT("Hello."));
    });
    const label = (key) => `key-${createHash("sha256").update(`turnwire-account\n${key}`).digest("hex").slice(0, 16)}`;
    const turn = async (apiKey, render) => {
      const conversation = new Conversation([human("hi")]);
      const handed = [];
      const stream = streamTurn({ provider: "anthropic", model: "claude-sonnet-4-5", apiKey, baseURL: s.origin, conversation, render });
      for await (const delta of stream) handed.push(delta);
      const result = await stream;
      const json = conversation.toJSON();
      return { account: json[json.length - 1].metadata?.account, handed: [result, json, handed] };
    };
    const first = await turn(KEY);
    assert.equal(first.account, label(KEY));
    assert.deepEqual(deepLeaks(first.handed, [KEY]), []);
    assert.equal((await turn(KEY)).account, first.account);
    assert.notEqual((await turn(`${KEY}-other`)).account, first.account);
    assert.equal((await turn(KEY, { account: "acme-prod" })).account, "acme-prod");
    assert.equal((await turn(undefined)).account, undefined);
    // the render's account keeps another key's signed thinking out of the request
    const conversation = new Conversation([
      human("plan"),
      { speaker: "ai", metadata: { provider: "anthropic", model: "claude-sonnet-4-5", account: label("sk-someone-else") }, blocks: [{ type: "thinking", thought: "t", signature: "EqQBCkYIBxgCKkBvdGhlcg==" }, { type: "text", text: "ok" }] },
      human("go on"),
    ]);
    const before = s.requests.length;
    await streamTurn({ provider: "anthropic", model: "claude-sonnet-4-5", apiKey: KEY, baseURL: s.origin, conversation, render: { maxTokens: 4096, thinking: { enabled: true, budgetTokens: 1024 } } });
    assert.ok(!s.requests[before].body.includes("EqQBCkYIBxgCKkBvdGhlcg=="), s.requests[before].body);
  });

  test("repairingFetch hands no Gemini ?key= and no credentials to onDiagnostics, onError or onAnswer", async () => {
    const a = await redirecting(307, undefined);
    const seen = [];
    const options = {
      onDiagnostics: (d, info) => seen.push(["diagnostics", d, info]),
      onError: (e, info) => seen.push(["error", e, info]),
      onAnswer: (o, info) => seen.push(["answer", o, info]),
    };
    const url = `${a.origin.replace("http://", `http://proxy:${KEY}@`)}/v1beta/models/gemini-2.5-pro:generateContent?key=${KEY}`;
    // a history with an orphan tool call: repaired, reported
    const damaged = JSON.stringify({
      contents: [
        { role: "user", parts: [{ text: "hi" }] },
        { role: "model", parts: [{ functionCall: { name: "f", args: {} } }] },
        { role: "user", parts: [{ text: "go on" }] },
      ],
    });
    const fetch = repairingFetch({ ...options, fetch: (u, init) => globalThis.fetch(String(u).replace(/\/\/[^@/]*@/, "//"), init) });
    await (await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: damaged })).text();
    await (await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: "{not json" })).text();
    const across = repairingFetch({ ...options, target: { provider: "gemini", model: "gemini-2.5-pro", apiKey: KEY, baseURL: a.origin } });
    const anthropicUrl = `${a.origin.replace("http://", `http://proxy:${KEY}@`)}/v1/messages?key=${KEY}`;
    await (await across(anthropicUrl, { method: "POST", body: JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 10, messages: [{ role: "user", content: "hi" }] }) })).text();
    assert.deepEqual(
      seen.map((s) => s[0]),
      ["diagnostics", "error", "answer"],
    );
    for (const [, , info] of seen) assert.ok(info.url.startsWith(a.origin), info.url);
    assert.deepEqual(deepLeaks(seen, [KEY]), []);
    assert.equal(new URL(a.requests[0].url, a.origin).searchParams.get("key"), KEY, "the request itself keeps its key");
  });
});

/**
 * Every place in `root` (own properties, enumerable or not, getters, errors' message, stack and
 * cause, map entries) whose text contains one of `needles`; property names too.
 */
function deepLeaks(root, needles) {
  const hits = [];
  const seen = new Set();
  const check = (text, path) => {
    for (const n of needles) if (text.includes(n)) hits.push(`${path}: ${text.slice(0, 200)}`);
  };
  const visit = (v, path) => {
    if (typeof v === "string") return check(v, path);
    if (typeof v === "number" || typeof v === "boolean" || typeof v === "bigint" || v === null || v === undefined) return;
    if (typeof v === "symbol") return check(String(v), path);
    if (seen.has(v)) return;
    seen.add(v);
    if (typeof v === "function") return check(`${v.name}`, path);
    if (v instanceof Error) {
      check(String(v), `${path}.toString()`);
      visit(v.message, `${path}.message`);
      visit(v.stack, `${path}.stack`);
      visit(v.cause, `${path}.cause`);
    }
    if (v instanceof Map) for (const [k, x] of v) (visit(k, `${path}<key>`), visit(x, `${path}<${String(k)}>`));
    if (v instanceof Set) for (const x of v) visit(x, `${path}<item>`);
    for (const key of Reflect.ownKeys(v)) {
      check(String(key), `${path}[name]`);
      const d = Object.getOwnPropertyDescriptor(v, key);
      let x;
      if (d === undefined) continue;
      if ("value" in d) x = d.value;
      else if (d.get) {
        try {
          x = d.get.call(v);
        } catch {
          continue;
        }
      }
      visit(x, `${path}.${String(key)}`);
    }
  };
  visit(root, "$");
  try {
    check(JSON.stringify(root, (_k, v) => (typeof v === "bigint" ? String(v) : v)) ?? "", "JSON");
  } catch {
    // a cycle: the walk above covered it
  }
  return hits;
}

describe("no key in what the router and runAgent hand back", () => {
  const KEY_A = "sk-PLANTED-anthropic-0123456789";
  const KEY_B = "sk-PLANTED-openai-0123456789";
  const PASSWORD = "sk-PLANTED-password-42";
  const TOKEN = "sk-PLANTED-proxy-token-7";
  const BASIC = btoa(`proxy:${PASSWORD}`);
  const NEEDLES = ["sk-PLANTED", BASIC];

  test("events carry a public view of the target: name, provider, model, baseURL without credentials", async () => {
    const a = await redirecting(307, undefined);
    const baseURL = a.origin.replace("http://", `http://proxy:${PASSWORD}@`);
    const router = createRouter([{ provider: "anthropic", model: "claude-sonnet-4-5", apiKey: KEY_A, baseURL, headers: { "x-proxy-token": TOKEN }, fetch: (u, i) => globalThis.fetch(u, i) }]);
    const events = [];
    const result = await router.turn({ conversation: new Conversation([human("hi")]), onEvent: (e) => events.push(e) });
    const view = { name: "anthropic:claude-sonnet-4-5", provider: "anthropic", model: "claude-sonnet-4-5", baseURL: a.origin };
    assert.deepEqual({ ...result.target }, view);
    assert.deepEqual({ ...result.attempts[0].target }, view);
    for (const e of events) if (e.target !== undefined) assert.deepEqual({ ...e.target }, view);
    assert.deepEqual({ ...router.current }, view);
    assert.deepEqual(router.targets.map((t) => ({ ...t })), [view]);
    assert.deepEqual(deepLeaks([result, events, router.current, router.targets], NEEDLES), []);
    // a view switches to its target (not to a new one without a key)
    router.switchTo(router.targets[0]);
    assert.equal(router.targets.length, 1);
  });

  test("a planted key is nowhere in a routed runAgent run with retries and a failover, nor in its saved session", async () => {
    // per target, the answers in order
    const script = { a: [], b: [] };
    const s = await started(async (req, res) => {
      const answer = script[req.url.split("/")[1]]?.shift();
      if (answer === undefined) {
        res.writeHead(404).end();
        return;
      }
      await answer(req, res);
    });
    const echo = (req) => `key ${req.headers["x-api-key"] ?? req.headers.authorization} token ${req.headers["x-proxy-token"]} basic ${req.headers.authorization}`;
    const stream = (body) => (_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(body);
    };
    // run 1, turn 1: A fails with a 500 echoing its credentials; B streams a little, then an
    // error event echoing its key; A answers with a tool call. Turn 2: A answers.
    script.a.push(
      (req, res) => res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ type: "error", error: { type: "api_error", message: echo(req) } })),
    );
    script.b.push((req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(
        sse({ id: "c1", model: "gpt-5.2", choices: [{ index: 0, delta: { role: "assistant", content: "Hel" } }] }) +
          sse({ error: { type: "server_error", message: `upstream rejected ${echo(req)}` } }),
      );
    });
    script.a.push(stream(ANTHROPIC_TOOL_CALL), stream(ANTHROPIC_TEXT("done")));
    // run 2: A's stream is cut; B answers 429 echoing its key; A answers 401 echoing its own
    script.a.push((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(ANTHROPIC_TEXT("partial").split("\n\n").slice(0, 3).join("\n\n") + "\n\n");
      setTimeout(() => res.socket?.destroy(), 20);
    });
    script.b.push((req, res) => res.writeHead(429, { "content-type": "application/json", "retry-after": "0" }).end(JSON.stringify({ error: { type: "rate_limit_exceeded", message: echo(req) } })));
    script.a.push((req, res) => res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ type: "error", error: { type: "authentication_error", message: echo(req) } })));

    const router = createRouter(
      [
        { name: "A", provider: "anthropic", model: "claude-sonnet-4-5", apiKey: KEY_A, baseURL: `${s.origin.replace("http://", `http://proxy:${PASSWORD}@`)}/a` },
        { name: "B", provider: "openai-chat", model: "gpt-5.2", apiKey: KEY_B, baseURL: `${s.origin}/b`, headers: { "x-proxy-token": TOKEN } },
      ],
      { strategy: "failover", maxAttempts: 4, backoff: { initialMs: 1, factor: 1, maxMs: 1 } },
    );
    const handed = []; // everything turnwire hands back, as it was handed
    const tools = [
      {
        name: "echo",
        description: "echoes",
        parameters: { type: "object", properties: { text: { type: "string" } } },
        execute: (...args) => {
          handed.push(["tool", args]);
          return "echoed";
        },
      },
    ];
    const conversation = new Conversation([human("a secret plan")]);
    const onEvent = (e) => handed.push(["event", e]);
    const first = await runAgent({ conversation, router, tools, onEvent });
    handed.push(["first", first]);
    assert.equal(first.stopped, "done", first.error?.stack);
    assert.deepEqual(
      first.turns[0].attempts.map((a) => [a.target.name, a.error?.errorType ?? "ok"]),
      [
        ["A", "api_error"],
        ["B", "server_error"],
        ["A", "ok"],
      ],
    );
    conversation.append(human("again"));
    const second = await runAgent({ conversation, router, tools, onEvent });
    handed.push(["second", second]);
    assert.equal(second.stopped, "error");
    assert.deepEqual(
      second.error.attempts.map((a) => [a.target.name, a.error?.errorType]),
      [
        ["A", "incomplete_stream"],
        ["B", "rate_limit_exceeded"],
        ["A", "authentication_error"],
      ],
    );
    // the servers did get the credentials: they echoed them
    assert.ok(s.requests.some((r) => r.headers["x-api-key"] === KEY_A && r.headers.authorization === `Basic ${BASIC}`));
    assert.ok(s.requests.some((r) => r.headers.authorization === `Bearer ${KEY_B}` && r.headers["x-proxy-token"] === TOKEN));
    handed.push(["conversation", conversation.toJSON()]);
    handed.push(["router", router.current, router.targets, router.pending]);
    const kinds = new Set(handed.filter(([k]) => k === "event").map(([, e]) => e.type));
    for (const k of ["attempt", "retry", "delta", "turn", "tool-result", "appended"]) assert.ok(kinds.has(k), `saw a ${k} event`);
    assert.deepEqual(deepLeaks(handed, NEEDLES), []);

    // a session saved from the run: in a file store and in memory
    const dir = await mkdtemp(join(tmpdir(), "turnwire-secrets-"));
    try {
      const { fileStore } = await import("turnwire/file-store");
      const saved = await saveSession(fileStore(dir), "run", { conversation, usage: first.usageByModel, target: router.current.name });
      assert.deepEqual(deepLeaks(saved, NEEDLES), []);
      const files = await readdir(dir);
      assert.ok(files.length > 0);
      for (const f of files) {
        const text = await readFile(join(dir, f), "utf8");
        for (const n of NEEDLES) assert.ok(!text.includes(n), `${f} holds ${n}`);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
