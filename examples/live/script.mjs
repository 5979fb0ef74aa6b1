// What the scripted (mock) models answer, turn by turn. The provider that serves a turn is
// decided by the round-robin router in demo.mjs; whichever provider's mock gets the turn plays
// the next reply back in its own wire format (ids, signatures, reasoning fields, SSE events).

/** The user's messages: the task, then two follow-ups once the agent has answered. */
export const USER = [
  "The parser test fails. Find out why and fix it.",
  "Thanks. Add a line to the changelog too.",
  "Summarise what you changed, in one sentence.",
];

const call = (name, args) => ({ type: "tool_call", name, arguments: args });
const think = (thinking) => ({ type: "thinking", thinking });
const text = (t) => ({ type: "text", text: t });

/**
 * The replies in the order they are asked for. A reply without tool calls ends the agent loop,
 * and the next user message comes; `failFirst` makes the provider that gets the turn answer
 * HTTP 500 first, so the router moves the turn to the next provider.
 */
export const REPLIES = [
  {
    blocks: [
      think("Failing test: look at the layout, the TODOs and the test output at once."),
      text("Let me look around first."),
      call("list_files", { dir: "" }),
      call("grep", { pattern: "TODO" }),
      call("run_tests", {}),
    ],
  },
  {
    blocks: [
      text("The TODO is in the parser. Reading it and its test."),
      call("read_file", { path: "src/parser.rs" }),
      call("read_file", { path: "tests/parser.rs" }),
    ],
  },
  {
    blocks: [
      think("split(',') keeps the space after each comma; the test expects trimmed items."),
      call("write_file", {
        path: "src/parser.rs",
        content: "pub fn parse(s: &str) -> Vec<&str> {\n    s.split(',').map(|p| p.trim()).collect()\n}\n",
      }),
    ],
  },
  { blocks: [text("Fixed. Running the tests."), call("run_tests", {})] },
  { blocks: [think("The tests pass; report back."), text("The test passes now: the parser trims each item.")] },
  {
    blocks: [
      think("Append one line to CHANGELOG.md; read it first."),
      call("read_file", { path: "CHANGELOG.md" }),
    ],
  },
  {
    blocks: [
      call("write_file", { path: "CHANGELOG.md", content: "# Changelog\n\n- parser: trim items around commas\n" }),
    ],
  },
  { blocks: [think("Check that the entry landed."), call("read_file", { path: "CHANGELOG.md" })] },
  { blocks: [text("It did. Running the tests once more."), call("run_tests", {})] },
  { blocks: [text("Added the changelog entry.")] },
  {
    failFirst: true,
    blocks: [
      think("One sentence: the cause and the fix."),
      text("`parse` now trims whitespace around comma-separated items, which fixes the failing test, and the changelog says so."),
    ],
  },
];
