// Chromium, two pages of their own (/session-save.html, then /session-load.html in a new page):
// the save page stores the session in IndexedDB, the load page — a fresh page, nothing shared
// but the origin's storage — loads it; both report the next request's digest, which run.mjs
// compares with Node's (resume fidelity, issue 13 point 6).
import * as api from "turnwire";
import assert from "./assert.mjs";
import { createHarness } from "./harness.mjs";
import { SESSION_ID, SESSION_TARGET, nextRequestsDigest, sessionHistory, sessionUsage } from "./session-resume.mjs";

const harness = createHarness();
const report = {};
const store = api.indexedDbStore({ name: "turnwire-resume-test" });
const phase = location.pathname.includes("save") ? "save" : "load";

if (phase === "save") {
  harness.test("a session is saved to IndexedDB", async () => {
    const conversation = new api.Conversation(sessionHistory());
    try {
      await store.delete(SESSION_ID);
      await api.saveSession(store, SESSION_ID, { conversation, usage: sessionUsage(api), target: SESSION_TARGET, meta: { page: "save" } });
      report.session = await nextRequestsDigest(api, conversation);
    } finally {
      conversation.free();
    }
  });
} else {
  harness.test("a fresh page loads the session from IndexedDB and renders the same next request", async () => {
    const session = await api.loadSession(store, SESSION_ID);
    assert.ok(session, "the session is in IndexedDB");
    try {
      assert.equal(session.target, SESSION_TARGET);
      assert.deepEqual(session.usage, sessionUsage(api));
      assert.equal(session.conversation.length, sessionHistory().length);
      report.session = await nextRequestsDigest(api, session.conversation);
    } finally {
      session.conversation.free();
    }
  });

  harness.test("IndexedDB: ifVersion is exact, and two connections appending at once both land (issue 29)", async () => {
    const id = "turnwire-concurrency-test";
    const human = (text) => ({ speaker: "human", blocks: [{ type: "text", text }] });
    await store.delete(id);
    const v1 = await store.save(id, { version: 1, transcript: [human("a")], usage: {}, savedAt: "" }, { ifVersion: null });
    assert.equal((await store.load(id)).storeVersion, v1);
    const v2 = await store.append(id, [human("b")], undefined, { ifVersion: v1 });
    let refused;
    try {
      await store.append(id, [human("stale")], undefined, { ifVersion: v1 });
    } catch (e) {
      refused = e;
    }
    assert.ok(api.isSessionStoreError(refused) && refused.code === "session_conflict" && refused.actualVersion === v2, `a stale append: ${refused}`);
    // a second store over the same database: another connection, as another tab would have
    const other = api.indexedDbStore({ name: "turnwire-resume-test" });
    const writes = [];
    for (let i = 0; i < 20; i++) writes.push(store.append(id, [human(`one-${i}`)]), other.append(id, [human(`two-${i}`)]));
    await Promise.all(writes);
    const loaded = await other.load(id);
    assert.equal(loaded.transcript.length, 42);
    assert.deepEqual(loaded.transcript.filter((m) => m.blocks[0].text.startsWith("two-")).map((m) => m.blocks[0].text), Array.from({ length: 20 }, (_, i) => `two-${i}`));
    await store.delete(id);
  });
}

window.__turnwire = { runtime: `Chromium ${navigator.userAgent.match(/Chrome\/([\d.]+)/)?.[1]} (session ${phase})`, ...(await harness.run()), report };
