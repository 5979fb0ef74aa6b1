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
}

window.__turnwire = { runtime: `Chromium ${navigator.userAgent.match(/Chrome\/([\d.]+)/)?.[1]} (session ${phase})`, ...(await harness.run()), report };
