// Serves the browser chat on 127.0.0.1: the page, and the installed turnwire package under
// /turnwire/ (its browser entry fetches the .wasm beside it). /config.json tells the page its
// targets: with --mock, the strict local mock providers (turnwire/mock, started here; their
// counters at /mock-stats.json); otherwise the providers whose API keys are in the environment
// (the page then calls them directly: keep it on your own machine).
//
//   node serve.mjs --mock [--port 8080]     prints the URL to open
import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { dirname, extname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const args = process.argv.slice(2);
const useMock = args.includes("--mock");
const port = args.includes("--port") ? Number(args[args.indexOf("--port") + 1]) : 0;
const here = dirname(fileURLToPath(import.meta.url));
const pkg = dirname(createRequire(import.meta.url).resolve("turnwire/package.json"));
const TYPES = { ".html": "text/html", ".mjs": "text/javascript", ".js": "text/javascript", ".css": "text/css", ".wasm": "application/wasm", ".json": "application/json" };
const MODELS = {
  anthropic: ["claude-sonnet-4-5", "ANTHROPIC_API_KEY"],
  "openai-chat": ["gpt-5.2", "OPENAI_API_KEY"],
  gemini: ["gemini-3-pro-preview", "GEMINI_API_KEY"],
  mistral: ["mistral-large-latest", "MISTRAL_API_KEY"],
};

let mock;
let targets;
if (useMock) {
  const { startMockProviders } = await import("turnwire/mock");
  mock = await startMockProviders({
    providers: Object.keys(MODELS),
    // The model reads both notes when asked to read, then answers from what they say.
    defaultTurn: (req) => {
      const history = req.body?.messages ?? req.body?.contents ?? [];
      const last = JSON.stringify(history.at(-1) ?? {});
      if (/"tool_result"|"functionResponse"|"role":"tool"/.test(last)) return { text: "Your notes say: ship on Friday, after the changelog and the v1.0 tag." };
      if (/\bread\b/i.test(last)) {
        return { blocks: [{ type: "thinking", thinking: "Two notes; read both at once." }, { type: "tool_call", name: "read_file", arguments: { path: "notes.md" } }, { type: "tool_call", name: "read_file", arguments: { path: "todo.md" } }] };
      }
      return { text: "Hello! Ask me to read notes.md and todo.md." };
    },
  });
  targets = Object.entries(MODELS).map(([provider, [model]]) => ({ provider, model, apiKey: "mock-key", baseURL: mock.baseURL(provider) }));
} else {
  targets = Object.entries(MODELS)
    .filter(([, [, key]]) => process.env[key])
    .map(([provider, [model, key]]) => ({ provider, model, apiKey: process.env[key], ...(provider === "anthropic" ? { headers: { "anthropic-dangerous-direct-browser-access": "true" } } : {}) }));
  if (targets.length === 0) {
    console.error("No API key is set (ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY, MISTRAL_API_KEY); use --mock to try the mock providers.");
    process.exit(2);
  }
}

const server = createServer((req, res) => {
  // only this machine's names: a page elsewhere must not reach /config.json (DNS rebinding)
  const host = (req.headers.host ?? "").replace(/:\d+$/, "");
  if (host !== "127.0.0.1" && host !== "localhost") {
    res.writeHead(403).end();
    return;
  }
  let path;
  try {
    path = decodeURIComponent(new URL(req.url, "http://x").pathname);
  } catch {
    res.writeHead(400).end();
    return;
  }
  if (path === "/config.json") return send(res, ".json", JSON.stringify({ targets }));
  if (path === "/mock-stats.json" && mock) return send(res, ".json", JSON.stringify(mock.stats));
  const [root, rest] = path.startsWith("/turnwire/") ? [pkg, path.slice("/turnwire/".length)] : [here, path === "/" ? "index.html" : path.slice(1)];
  const file = resolve(root, rest);
  if (!file.startsWith(root + sep) || !existsSync(file) || !statSync(file).isFile()) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream", "cache-control": "no-store" });
  createReadStream(file)
    .on("error", () => res.destroy())
    .pipe(res);
});
server.listen(port, "127.0.0.1", () => console.log(`turnwire chat: http://127.0.0.1:${server.address().port}/`));

function send(res, ext, body) {
  res.writeHead(200, { "content-type": TYPES[ext], "cache-control": "no-store" }).end(body);
}

const stop = async () => {
  server.close();
  await mock?.close();
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
