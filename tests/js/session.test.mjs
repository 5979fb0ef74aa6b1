// Sessions (issue 13, point 6): stores (memory, key-value, files with atomic writes and an
// append log), usage totals per provider and model, cost, and resume fidelity: a session saved
// mid-way and loaded in a fresh Node process renders the next request byte for byte as the
// original would have. (Chromium with IndexedDB and Deno: tests/js/runtimes/, session pages.)
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, appendFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Conversation, addUsage, cost, createRouter, indexedDbStore, kvStore, loadSession, memoryStore, mergeUsage, runAgent, saveSession } from "turnwire";
import { fileStore } from "turnwire/file-store";
import { MOCK_PROVIDERS, startMockProviders } from "turnwire/mock";
import { MODELS } from "./mock-helpers.mjs";

const human = (text) => ({ speaker: "human", blocks: [{ type: "text", text }] });
const decoder = new TextDecoder();
const dir = mkdtempSync(join(tmpdir(), "turnwire-sessions-"));
after(() => rmSync(dir, { recursive: true, force: true }));

describe("stores keep sessions exactly", () => {
  for (const [name, make] of [
    ["memoryStore", () => memoryStore()],
    ["kvStore over a Map", () => {
      const map = new Map();
      return kvStore({ get: async (k) => map.get(k) ?? null, put: async (k, v) => void map.set(k, v), delete: async (k) => void map.delete(k) }, { prefix: "t:" });
    }],
    ["fileStore", () => fileStore(join(dir, "store"))],
  ]) {
    test(`${name}: save, append, load, delete`, async () => {
      const store = make();
      assert.equal(await store.load("s1"), undefined);
      const conversation = new Conversation([human("hi"), { speaker: "ai", blocks: [{ type: "text", text: "hello" }], custom: { kept: true } }]);
      const usage = addUsage({}, "anthropic", "claude-sonnet-4-5", { inputTokens: 10, outputTokens: 2 });
      await saveSession(store, "s1", { conversation, usage, target: "anthropic:claude-sonnet-4-5", meta: { title: "greeting" } });
      await store.append("s1", [human("more"), human("and more")], addUsage(structuredClone(usage), "gemini", "gemini-2.5-pro", { outputTokens: 5 }));
      const loaded = await loadSession(store, "s1");
      assert.deepEqual(loaded.conversation.toJSON(), [...conversation.toJSON(), human("more"), human("and more")]);
      assert.deepEqual(loaded.usage, { "anthropic:claude-sonnet-4-5": { turns: 1, inputTokens: 10, outputTokens: 2 }, "gemini:gemini-2.5-pro": { turns: 1, outputTokens: 5 } });
      assert.equal(loaded.target, "anthropic:claude-sonnet-4-5");
      assert.deepEqual(loaded.meta, { title: "greeting" });
      await store.delete("s1");
      assert.equal(await store.load("s1"), undefined);
      conversation.free();
      loaded.conversation.free();
    });
  }

  test("fileStore writes atomically, appends a line per call, and skips a line cut short by a crash", async () => {
    const folder = join(dir, "atomic");
    const damaged = [];
    const store = fileStore(folder, { onDamaged: (id, line) => damaged.push([id, line]) });
    const conversation = new Conversation([human("a")]);
    await saveSession(store, "s", { conversation });
    await store.append("s", [human("b")]);
    await store.append("s", [human("c")]);
    assert.deepEqual(readdirSync(folder).sort(), ["s.json", "s.log"], "no temporary file left behind");
    assert.equal(readFileSync(join(folder, "s.log"), "utf8").split("\n").filter((l) => l.includes('"messages"')).length, 2);
    appendFileSync(join(folder, "s.log"), '{"messages":[{"speaker":"human","blo'); // a crash mid-write
    await store.append("s", [human("d")]); // the next append still stands on its own line
    const loaded = await store.load("s");
    assert.deepEqual(loaded.transcript.map((m) => m.blocks[0].text), ["a", "b", "c", "d"]);
    assert.equal(damaged.length, 1);
    // the next save folds the log into the snapshot
    const log = readFileSync(join(folder, "s.log"));
    await store.save("s", loaded);
    assert.deepEqual(readdirSync(folder), ["s.json"]);
    // a crash between writing the snapshot and removing the log: nothing is replayed twice
    writeFileSync(join(folder, "s.log"), log);
    assert.deepEqual((await store.load("s")).transcript.map((m) => m.blocks[0].text), ["a", "b", "c", "d"]);
    await store.append("s", [human("e")]);
    assert.deepEqual((await store.load("s")).transcript.map((m) => m.blocks[0].text), ["a", "b", "c", "d", "e"]);
    await assert.rejects(store.load("../escape"), /session id/);
    writeFileSync(join(folder, "broken.json"), "{not json");
    await assert.rejects(store.load("broken"), /is not JSON/);
    conversation.free();
  });

  test("a damaged or foreign value is a clear error; indexedDbStore needs indexedDB", async () => {
    const store = kvStore({ get: () => '{"version": 7}', put: () => {} });
    await assert.rejects(loadSession(store, "x"), /not a turnwire session/);
    await assert.rejects(kvStore({ get: () => "{", put: () => {} }).load("y"), /damaged/);
    await assert.rejects(indexedDbStore().load("z"), /no indexedDB/);
  });
});

describe("usage totals and cost", () => {
  test("addUsage adds per provider:model; cost prices totals or one turn", () => {
    const totals = {};
    addUsage(totals, "anthropic", "claude-sonnet-4-5", { inputTokens: 1_000_000, outputTokens: 100_000, cacheReadTokens: 2_000_000 });
    addUsage(totals, "anthropic", "claude-sonnet-4-5", { inputTokens: 1_000_000 });
    addUsage(totals, "openai-chat", "gpt-5.2", { outputTokens: 1_000_000 });
    assert.equal(totals["anthropic:claude-sonnet-4-5"].turns, 2);
    const prices = { "anthropic:claude-sonnet-4-5": { input: 3, output: 15, cacheRead: 0.3 }, "openai-chat": { input: 1.25, output: 10 } };
    assert.equal(cost(totals, prices), 2 * 3 + 0.1 * 15 + 2 * 0.3 + 10);
    assert.equal(cost({ inputTokens: 500_000, outputTokens: 0 }, { input: 2, output: 8 }), 1);
    assert.equal(cost({}, prices), 0, "a new session's empty totals");
    assert.throws(() => cost(totals, { "anthropic:claude-sonnet-4-5": { input: 1, output: 1 } }), /no prices for openai-chat:gpt-5.2/);
  });
});

describe("resume fidelity: a fresh process sends the same next request", () => {
  let mock;
  before(async () => {
    mock = await startMockProviders();
  });
  after(async () => {
    await mock?.close();
  });

  test("saved mid-session after tool turns and a provider switch, loaded in a new Node process: byte-identical for every provider", async () => {
    const store = fileStore(join(dir, "resume"));
    const tools = [{ name: "read_file", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] }, execute: ({ path }) => `contents of ${path}` }];
    const router = createRouter([{ provider: "anthropic", model: MODELS.anthropic, apiKey: "k", baseURL: mock.baseURL("anthropic") }, { provider: "gemini", model: MODELS.gemini, apiKey: "k", baseURL: mock.baseURL("gemini") }]);
    mock.script("anthropic", { blocks: [{ type: "thinking", thinking: "look first" }, { type: "tool_call", name: "read_file", arguments: { path: "a.rs" } }] }, { text: "Read it." });
    const conversation = new Conversation([human("read a.rs")]);
    const first = await runAgent({ conversation, router, tools });
    router.switchTo("gemini");
    conversation.append(human("now summarise"));
    mock.script("gemini", { text: "A summary." });
    const second = await runAgent({ conversation, router, tools });
    const usage = mergeUsage(mergeUsage({}, first.usageByModel), second.usageByModel);
    const byTurn = {};
    for (const r of [...first.turns, ...second.turns]) addUsage(byTurn, r.target.provider, r.target.model, r.usage);
    assert.deepEqual(usage, byTurn);
    assert.equal(usage[`anthropic:${MODELS.anthropic}`].turns, 2);
    conversation.append(human("one more question, with a cut emoji \ud83d"));
    await saveSession(store, "mid", { conversation, usage, target: router.current.name });
    const expected = {};
    for (const provider of MOCK_PROVIDERS) {
      expected[provider] = conversation.renderRequest({ provider, model: MODELS[provider] }).body;
    }
    // beside node_modules/turnwire (the consumer folder), so that the child resolves the package
    const child = join(process.cwd(), "session-resume-child.tmp.mjs");
    writeFileSync(
      child,
      `import { loadSession } from "turnwire";
       import { fileStore } from "turnwire/file-store";
       const [folder, id, models] = process.argv.slice(2);
       const { conversation, target } = await loadSession(fileStore(folder), id);
       const out = { target };
       for (const [provider, model] of Object.entries(JSON.parse(models))) out[provider] = conversation.renderRequest({ provider, model }).body;
       process.stdout.write(JSON.stringify(out));`,
    );
    const models = Object.fromEntries(MOCK_PROVIDERS.map((p) => [p, MODELS[p]]));
    const printed = execFileSync(process.execPath, [child, join(dir, "resume"), "mid", JSON.stringify(models)], { cwd: process.cwd(), encoding: "utf8" });
    rmSync(child, { force: true });
    const fresh = JSON.parse(printed);
    assert.equal(fresh.target, `gemini:${MODELS.gemini}`);
    for (const provider of MOCK_PROVIDERS) assert.equal(fresh[provider], expected[provider], provider);
    // and the resumed session's next turn is accepted where the original's would be
    const resumed = await loadSession(store, "mid");
    const next = await runAgent({ conversation: resumed.conversation, router, tools });
    assert.equal(next.stopped, "done");
    assert.deepEqual(mock.log.filter((e) => e.outcome === "rejected").map((e) => e.provider), []);
    assert.ok(decoder.decode(new TextEncoder().encode(expected.anthropic)).includes("one more question"));
    conversation.free();
    resumed.conversation.free();
  });
});
