// Deno, two processes: `deno run … deno-session.run.mjs save <folder>` stores the session with
// turnwire/file-store, then a fresh `… load <folder>` loads it; both print the next request's
// digest for run.mjs to compare with Node's (resume fidelity, issue 13 point 6). Permissions:
// read and write in <folder> only.
import assert from "node:assert/strict";
import * as api from "turnwire";
import { fileStore } from "turnwire/file-store";
import { createHarness } from "./harness.mjs";
import { runAndPrint } from "./report.mjs";
import { SESSION_ID, SESSION_TARGET, nextRequestsDigest, sessionHistory, sessionUsage } from "./session-resume.mjs";

const [phase, folder] = Deno.args;
const harness = createHarness();
const report = {};
const store = fileStore(folder);

if (phase === "save") {
  harness.test("a session is saved with turnwire/file-store", async () => {
    const conversation = new api.Conversation(sessionHistory());
    try {
      await api.saveSession(store, SESSION_ID, { conversation, usage: sessionUsage(api), target: SESSION_TARGET });
      report.session = await nextRequestsDigest(api, conversation);
    } finally {
      conversation.free();
    }
  });
} else {
  harness.test("a fresh process loads the session and renders the same next request", async () => {
    const session = await api.loadSession(store, SESSION_ID);
    assert.ok(session, "the session file is there");
    try {
      assert.equal(session.target, SESSION_TARGET);
      assert.deepEqual(session.usage, sessionUsage(api));
      report.session = await nextRequestsDigest(api, session.conversation);
    } finally {
      session.conversation.free();
    }
  });
}

await runAndPrint(harness, {
  runtime: `Deno ${Deno.version.deno} (session ${phase})`,
  report,
  exit: (code) => Deno.exit(code),
});
