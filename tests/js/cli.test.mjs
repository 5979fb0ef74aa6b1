// examples/cli/agent.mjs in a pseudo-terminal (tmux), against the strict mock providers
// (issue 13, point 7): a task streams and runs a tool, `/model` switches the provider for the
// next turn, Ctrl-C cancels a running tool and the history records it as cancelled, and the saved
// session renders a valid request for every provider. scripts/test-js.sh copies the example into
// the scratch consumer as cli-agent.mjs.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { loadSession, renderForProvider, validateRequest } from "turnwire";
import { fileStore } from "turnwire/file-store";
import { MODELS } from "./mock-helpers.mjs";

const NAME = `turnwire-cli-${process.pid}`;
const dir = mkdtempSync(join(tmpdir(), "turnwire-cli-"));
const tmux = (...args) => execFileSync("tmux", args, { encoding: "utf8" });
const screen = () => tmux("capture-pane", "-p", "-J", "-S", "-500", "-t", NAME);
const keys = (...k) => tmux("send-keys", "-t", NAME, ...k);

async function waitFor(text, ms = 15_000) {
  const until = Date.now() + ms;
  for (;;) {
    const now = screen();
    if (now.includes(text)) return now;
    if (Date.now() > until) assert.fail(`the CLI never printed ${JSON.stringify(text)}; the screen:\n${now}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

after(() => {
  try {
    tmux("kill-session", "-t", NAME);
  } catch {
    // already gone
  }
  rmSync(dir, { recursive: true, force: true });
});

test("REQ-915-034 the agent CLI in a terminal: stream, /model, Ctrl-C cancels the running tool and records it", async () => {
  tmux("new-session", "-d", "-s", NAME, "-x", "160", "-y", "60", `node cli-agent.mjs --mock --session ${dir}; echo "EXITED $?"; sleep 60`);
  await waitFor("/model <provider> to switch");
  keys("read the readme", "Enter");
  await waitFor("Done: I read the result of the tool.");
  assert.match(screen(), /\[anthropic:claude-sonnet-4-5\][^\n]*\n\s+running read_file/);
  keys("/model gemini", "Enter");
  await waitFor("next turn goes to gemini:gemini-3-pro-preview");
  keys("now build it", "Enter");
  await waitFor("running run_command");
  await new Promise((r) => setTimeout(r, 300)); // the build is under way
  keys("C-c");
  await waitFor("cancelled: 1 tool call(s) recorded as cancelled; 0 left open");
  assert.match(screen(), /run_command: cancelled \(recorded\)/);
  keys("thanks", "Enter");
  await waitFor("[gemini:gemini-3-pro-preview] You're welcome.");
  keys("/exit", "Enter");
  const end = await waitFor("EXITED");
  assert.match(end, /requests: \d+ accepted, 0 rejected/);
  assert.match(end, /EXITED 0/);

  // the saved session: the cancellation is a real, recorded completion; every provider takes it
  const session = await loadSession(fileStore(dir), "cli");
  try {
    assert.equal(session.target, "gemini:gemini-3-pro-preview");
    const calls = session.conversation.toolCalls();
    assert.deepEqual(calls.map((c) => [c.name, c.status]), [["read_file", "complete"], ["run_command", "errored"]]);
    const runCommand = calls[1];
    assert.equal(session.conversation.at(runCommand.result.messageIndex).blocks[runCommand.result.blockIndex].cancelled, true);
    assert.deepEqual(session.conversation.openCalls(), []);
    for (const [provider, model] of Object.entries(MODELS)) {
      const { body } = renderForProvider(session.conversation.toJSON(), { provider, model });
      assert.deepEqual(validateRequest(provider, body, model), [], provider);
    }
    assert.ok(session.usage["anthropic:claude-sonnet-4-5"].turns >= 2);
  } finally {
    session.conversation.free();
  }
});
