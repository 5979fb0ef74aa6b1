// The demo agent's tools: a small in-memory repository with a failing parser test. Each tool
// runs locally and deterministically; `run_tests` is slow, so the agent's per-tool time limit
// can cancel it in the middle of a batch of parallel calls.

/** The files of the repository the agent works on. */
const repo = new Map([
  ["src/parser.rs", "pub fn parse(s: &str) -> Vec<&str> {\n    s.split(',').collect() // TODO: trim\n}\n"],
  ["src/lib.rs", "pub mod parser;\n"],
  ["tests/parser.rs", "#[test]\nfn trims() {\n    assert_eq!(parse(\"a, b\"), [\"a\", \"b\"]);\n}\n"],
  ["CHANGELOG.md", "# Changelog\n"],
]);

const sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason ?? new Error("cancelled"));
    });
  });

/** The tool declarations sent with every request (render option `tools`). */
export const TOOLS = [
  {
    name: "list_files",
    description: "List the files under a directory of the repository.",
    parameters: { type: "object", properties: { dir: { type: "string" } }, required: ["dir"] },
  },
  {
    name: "read_file",
    description: "Read one file of the repository.",
    parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  },
  {
    name: "grep",
    description: "Find the lines that contain a pattern.",
    parameters: { type: "object", properties: { pattern: { type: "string" } }, required: ["pattern"] },
  },
  {
    name: "write_file",
    description: "Replace the content of a file.",
    parameters: {
      type: "object",
      properties: { path: { type: "string" }, content: { type: "string" } },
      required: ["path", "content"],
    },
  },
  {
    name: "run_tests",
    description: "Run the test suite.",
    parameters: { type: "object", properties: {} },
  },
];

/** Whether the parser bug has been fixed (run_tests reads it). */
const fixed = () => repo.get("src/parser.rs")?.includes("trim()") ?? false;

const impl = {
  async list_files({ dir = "" }) {
    return [...repo.keys()].filter((p) => p.startsWith(dir)).join("\n");
  },
  async read_file({ path }) {
    const text = repo.get(path);
    if (text === undefined) throw new Error(`no such file: ${path}`);
    return text;
  },
  async grep({ pattern }) {
    const hits = [];
    for (const [path, text] of repo) {
      text.split("\n").forEach((line, i) => line.includes(pattern) && hits.push(`${path}:${i + 1}: ${line.trim()}`));
    }
    return hits.join("\n") || "no matches";
  },
  async write_file({ path, content }) {
    repo.set(path, content);
    return `wrote ${content.length} bytes to ${path}`;
  },
  async run_tests(_args, { signal, slow }) {
    // The first run is slow (a cold build): long enough for the agent's time limit to cancel it.
    if (slow) await sleep(60_000, signal);
    return fixed() ? "test result: ok. 1 passed; 0 failed" : "test result: FAILED. 0 passed; 1 failed (trims)";
  },
};

/**
 * Runs one call. Resolves with `{ result }` or `{ error }`, or with `{ cancelled: true }` when
 * `timeoutMs` passes first (the call then gets no result at all, as in an agent whose user
 * pressed Ctrl-C: the next render gives it a synthetic one).
 */
export async function runTool(call, { timeoutMs, slow = false }) {
  const fn = impl[call.name];
  if (!fn) return { error: `unknown tool ${call.name}` };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error("timed out")), timeoutMs);
  try {
    return { result: await fn(call.parameters ?? {}, { signal: controller.signal, slow }) };
  } catch (e) {
    if (controller.signal.aborted) return { cancelled: true };
    return { error: String(e?.message ?? e) };
  } finally {
    clearTimeout(timer);
  }
}
