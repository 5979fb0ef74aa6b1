// Runs the JS suite (tests/js/suite.mjs) in Deno, Bun, workerd and headless Chromium against the
// package installed in the scratch consumer (the current directory), and in the recipes
// (tests/js/recipes: the edge-light entry in @edge-runtime/vm, Hono, Vite, Next.js; installed by
// scripts/test-js.sh into $TURNWIRE_RECIPES/<name>), then checks "same inputs →
// byte-identical bodies": the digest every runtime reports (SHA-256 over the body of every
// fixture × provider, in a fixed order) must be the same in every runtime and recipe (these and
// the two Node runs, which left theirs in $TURNWIRE_DIGESTS) and equal the digest of the Rust
// goldens. scripts/test-js.sh runs it as
//
//   TURNWIRE_FIXTURES=tests/fixtures TURNWIRE_RUNTIMES=target/js-runtimes \
//   TURNWIRE_RECIPES=target/js-recipes TURNWIRE_DIGESTS=<dir> node run.mjs
//                                                  (optional: TURNWIRE_ONLY=deno,chromium,next)
//
// TURNWIRE_RUNTIMES holds node_modules with deno, bun, wrangler (+ miniflare, workerd) and
// playwright-core (tests/js/runtimes/package.json). Every child process and every wait has a
// time limit; the Chromium page server listens on 127.0.0.1, on a port the system picks, and is
// closed before this exits.
//
// For workerd and Chromium it also starts the strict mock providers (turnwire/mock) on
// 127.0.0.1 and hands their base URLs to the suite (a request header, /mock.json), which then
// runs streamTurn against them from inside the runtime; every request they get must be
// accepted.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { extname, join, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { startMockProviders } from "turnwire/mock";
import { loadFixtures } from "./fixtures.mjs";
import { MODELS } from "./models.mjs";
import { goldenDigest, transcriptFixtures } from "./suite.mjs";
import * as nodeApi from "turnwire";
import { nextRequestsDigest, sessionHistory } from "./session-resume.mjs";

const RUNTIMES = resolve(process.env.TURNWIRE_RUNTIMES ?? "");
const DIGESTS = process.env.TURNWIRE_DIGESTS;
const ONLY = process.env.TURNWIRE_ONLY?.split(",").map((s) => s.trim()).filter(Boolean);
const CHROMIUM = process.env.TURNWIRE_CHROMIUM ?? "/usr/bin/chromium";
// Not later than the workerd that wrangler 4.86.0 / miniflare 4.20260426.0 bundle.
const COMPATIBILITY_DATE = "2026-04-26";
const PER_RUNTIME_MS = 120_000;
const TOTAL_MS = 480_000;

const bin = (name) => join(RUNTIMES, "node_modules", ".bin", name);
const requireTool = createRequire(join(RUNTIMES, "package.json"));
const importTool = async (name) => import(pathToFileURL(requireTool.resolve(name)).href);
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

// Everything below is bounded, but a hung child or browser must not hang CI either.
setTimeout(() => {
  console.error(`run.mjs: not done after ${seconds(TOTAL_MS)}, giving up`);
  process.exit(1);
}, TOTAL_MS).unref();

if (!existsSync(bin("deno"))) throw new Error(`no runtimes in ${RUNTIMES}/node_modules (set TURNWIRE_RUNTIMES)`);
const fixtures = loadFixtures(process.env.TURNWIRE_FIXTURES);
writeFileSync("fixtures.json", JSON.stringify(fixtures));
const golden = await goldenDigest(fixtures);

// The mock providers for the runtimes that can reach 127.0.0.1 (workerd, Chromium). Their default
// turn: two parallel tool calls after some thinking, or a text once the request carries results.
const MOCKED = ["anthropic", "gemini", "bedrock-converse", "ollama"];
const mock = await startMockProviders({
  providers: MOCKED,
  defaultTurn: (req) =>
    /"tool_result"|"functionResponse"|"function_call_output"|"toolResult"|"role":"tool"/.test(JSON.stringify(req.body))
      ? { text: "Both files read: they agree." }
      : {
          blocks: [
            { type: "thinking", thinking: "Two files, read in parallel." },
            { type: "tool_call", name: "read_file", arguments: { path: "a.rs" } },
            { type: "tool_call", name: "read_file", arguments: { path: "b.rs" } },
          ],
        },
});
const mockInfo = JSON.stringify({ baseURLs: Object.fromEntries(MOCKED.map((p) => [p, mock.baseURL(p)])) });
/** The requests one run of the stream suite's mock turns makes: a tool turn and its follow-up per mocked provider. */
const PER_SUITE = 2 * MOCKED.length;

/** What the mock providers answered during one runtime's run: problems, or [] when all was accepted. */
function mockProblems(expected) {
  const log = mock.log;
  mock.reset();
  const problems = log
    .filter((e) => e.outcome !== "accepted")
    .map((e) => `mock ${e.provider}: ${e.status} ${e.error?.type}: ${e.error?.message} ${e.violations.map((v) => v.rule).join(",")}`);
  if (log.length !== expected) problems.push(`the mock providers got ${log.length} requests, expected ${expected}`);
  return problems;
}

/** Runs a runtime's script to completion; its last line is `TURNWIRE_RESULT <json>`. */
function runScript(command, args, env) {
  const r = spawnSync(command, args, {
    encoding: "utf8",
    timeout: PER_RUNTIME_MS,
    killSignal: "SIGKILL",
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, NO_COLOR: "1", ...env },
  });
  if (r.error) throw r.error;
  const line = r.stdout.split("\n").find((l) => l.startsWith("TURNWIRE_RESULT "));
  if (!line) {
    throw new Error(`${command} exited with ${r.status ?? r.signal} and no result\n${r.stdout.slice(-4000)}${r.stderr.slice(-4000)}`);
  }
  if (r.stderr.trim()) console.log(r.stderr.trim().replace(/^/gm, "    stderr: "));
  return JSON.parse(line.slice("TURNWIRE_RESULT ".length));
}

/** `runScript` without blocking this process: for scripts that call the mock providers here. */
function runScriptAsync(command, args, env, cwd) {
  return new Promise((resolveRun, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, NO_COLOR: "1", ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), PER_RUNTIME_MS);
    child.once("error", reject);
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      const line = stdout.split("\n").find((l) => l.startsWith("TURNWIRE_RESULT "));
      if (!line) return reject(new Error(`${command} exited with ${code ?? signal} and no result\n${stdout.slice(-4000)}${stderr.slice(-4000)}`));
      if (stderr.trim()) console.log(stderr.trim().replace(/^/gm, "    stderr: "));
      resolveRun(JSON.parse(line.slice("TURNWIRE_RESULT ".length)));
    });
  });
}

const deno = () =>
  runScript(bin("deno"), ["run", "--no-prompt", "--v8-flags=--expose-gc", "deno.run.mjs"], {
    DENO_DIR: join(RUNTIMES, ".deno"),
    DENO_NO_UPDATE_CHECK: "1",
  });

const bun = () => runScript(bin("bun"), ["bun.run.mjs"], { DO_NOT_TRACK: "1" });

/** Deno, resume fidelity: one process saves the session to files, a fresh one loads it. */
function denoSession() {
  const folder = mkdtempSync(join(tmpdir(), "turnwire-deno-session-"));
  try {
    const env = { DENO_DIR: join(RUNTIMES, ".deno"), DENO_NO_UPDATE_CHECK: "1" };
    const allow = [`--allow-read=${folder}`, `--allow-write=${folder}`];
    return ["save", "load"].map((phase) => runScript(bin("deno"), ["run", "--no-prompt", ...allow, "deno-session.run.mjs", phase, folder], env));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** wrangler bundles `main` as for a deploy (offline) into `out`; Miniflare options to run it. */
function bundleWorker(main, out) {
  writeFileSync("wrangler.json", JSON.stringify({ name: "turnwire-js-tests", main, compatibility_date: COMPATIBILITY_DATE }));
  const build = spawnSync(bin("wrangler"), ["deploy", "--dry-run", "--outdir", out, "--config", "wrangler.json"], {
    encoding: "utf8",
    timeout: PER_RUNTIME_MS,
    killSignal: "SIGKILL",
    env: { ...process.env, NO_COLOR: "1", WRANGLER_SEND_METRICS: "false", WRANGLER_LOG_PATH: join(out, "logs") },
  });
  if (build.status !== 0) throw new Error(`wrangler deploy --dry-run failed (${build.status ?? build.signal})\n${build.stdout}${build.stderr}`);
  const script = join(out, main.replace(/\.mjs$/, ".js"));
  if (!readFileSync(script, "utf8").includes("// node_modules/turnwire/dist/workerd.mjs")) {
    throw new Error("wrangler did not bundle dist/workerd.mjs for the workerd condition");
  }
  return {
    modules: true,
    scriptPath: script,
    modulesRoot: out,
    // what wrangler's own rules do with the bundle's .wasm import
    modulesRules: [{ type: "CompiledWasm", include: ["**/*.wasm"] }],
    compatibilityDate: COMPATIBILITY_DATE,
    cf: false,
  };
}

/** wrangler bundles worker.mjs as for a deploy (offline), Miniflare runs the bundle in workerd. */
async function workerd() {
  const out = mkdtempSync(join(tmpdir(), "turnwire-worker-"));
  try {
    const { Miniflare } = await importTool("miniflare");
    const workerdVersion = requireTool("workerd/package.json").version;
    const mf = new Miniflare(bundleWorker("worker.mjs", out));
    try {
      const response = await mf.dispatchFetch("http://localhost/", {
        method: "POST",
        body: readFileSync("fixtures.json"),
        headers: { "x-turnwire-runtime": `${workerdVersion} (no nodejs_compat)`, "x-turnwire-mock": mockInfo },
        signal: AbortSignal.timeout(PER_RUNTIME_MS),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`the worker answered ${response.status}: ${text.slice(0, 4000)}`);
      return JSON.parse(text);
    } finally {
      await mf.dispose();
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/**
 * examples/edge/worker.mjs (copied as edge-worker.mjs): bundled by wrangler and run in workerd
 * with a KV namespace, then run in Deno with a Map as its KV; two requests each, the second
 * resuming the session the first stored. The mocks answer each with a scripted text.
 */
async function edge() {
  const env = { PROVIDER: "anthropic", MODEL: "claude-sonnet-4-5", API_KEY: "test-key", BASE_URL: mock.baseURL("anthropic") };
  const asks = [
    { session: "s1", message: "hello", reply: "Hello from the edge.", messages: 2 },
    { session: "s1", message: "and again", reply: "Still here.", messages: 4 },
  ];
  const out = mkdtempSync(join(tmpdir(), "turnwire-edge-"));
  const results = [];
  try {
    const { Miniflare } = await importTool("miniflare");
    const mf = new Miniflare({ ...bundleWorker("edge-worker.mjs", out), kvNamespaces: ["SESSIONS"], bindings: env });
    const failures = [];
    try {
      for (const ask of asks) {
        mock.script("anthropic", { text: ask.reply });
        const response = await mf.dispatchFetch("http://localhost/", { method: "POST", body: JSON.stringify(ask), signal: AbortSignal.timeout(PER_RUNTIME_MS) });
        const answer = await response.json();
        if (answer.reply !== ask.reply || answer.messages !== ask.messages) failures.push({ name: `edge ask ${JSON.stringify(ask.message)}`, error: `answered ${JSON.stringify(answer)}` });
      }
    } finally {
      await mf.dispose();
    }
    const version = requireTool("workerd/package.json").version;
    results.push({ runtime: `workerd ${version} (edge example)`, passed: asks.length - failures.length, failed: failures.length, skipped: 0, failures, skips: [], report: {} });
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  for (const ask of asks) mock.script("anthropic", { text: ask.reply });
  const port = new URL(env.BASE_URL).port;
  results.push(
    // the mock providers answer from this process: it must not block while Deno runs
    await runScriptAsync(bin("deno"), ["run", "--no-prompt", `--allow-net=127.0.0.1:${port}`, "deno-edge.run.mjs", JSON.stringify({ env, asks })], {
      DENO_DIR: join(RUNTIMES, ".deno"),
      DENO_NO_UPDATE_CHECK: "1",
    }),
  );
  return results;
}

/**
 * examples/browser-chat (copied into chat/): its own server (serve.mjs --mock, with its own mock
 * providers) in a child process; a new page asks to read two notes (two parallel tool calls,
 * their results, the answer), switches provider from the picker, asks again (the history another
 * provider wrote, repaired), reloads (the session comes back from IndexedDB). Screenshots before
 * and after must show the page and the conversation (chat-empty.png, chat.png in the consumer).
 */
async function browserChat(context) {
  const failures = [];
  let passed = 0;
  const check = async (name, fn) => {
    try {
      await fn();
      passed++;
    } catch (e) {
      failures.push({ name, error: String(e?.stack ?? e) });
    }
  };
  const child = spawn(process.execPath, ["chat/serve.mjs", "--mock"], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  try {
    const url = await new Promise((ok, fail) => {
      let out = "";
      const timer = setTimeout(() => fail(new Error(`serve.mjs printed no URL\n${out}${stderr}`)), 20_000);
      child.stdout.on("data", (d) => {
        out += d;
        const m = out.match(/turnwire chat: (http:\S+)/);
        if (m) {
          clearTimeout(timer);
          ok(m[1]);
        }
      });
      child.once("exit", (code) => fail(new Error(`serve.mjs exited with ${code}\n${out}${stderr}`)));
    });
    const tab = await context.newPage();
    await tab.setViewportSize({ width: 1000, height: 700 });
    const problems = [];
    tab.on("console", (m) => ["warning", "error"].includes(m.type()) && problems.push(`console.${m.type()}: ${m.text()}`));
    tab.on("pageerror", (e) => problems.push(`uncaught ${e.stack ?? e}`));
    const turns = async (n) => tab.waitForSelector(`body[data-turns="${n}"]`, { timeout: 30_000 });
    const text = (selector) => tab.$$eval(selector, (els) => els.map((e) => e.textContent));
    let empty;
    await check("the chat page loads turnwire/render and its targets", async () => {
      await tab.goto(url, { timeout: 30_000 });
      await tab.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
      empty = await tab.screenshot();
      const options = await tab.$$eval("#provider option", (os) => os.map((o) => o.value));
      if (!options.includes("gemini:gemini-3-pro-preview")) throw new Error(`picker: ${options}`);
    });
    await check("a question streams an answer through two parallel tool calls", async () => {
      await tab.fill("#input", "Please read notes.md and todo.md");
      await tab.click("#send");
      await turns(1);
      const calls = await text(".message.ai .call");
      const results = await text(".message.ai .result");
      const bubbles = await text(".message.ai");
      if (calls.length !== 2 || results.length !== 2) throw new Error(`calls ${calls}, results ${results}`);
      if (!bubbles.join("\n").includes("Your notes say: ship on Friday")) throw new Error(`answer: ${bubbles.join(" | ")}`);
    });
    await check("the picker switches provider for the next turn; its request is repaired and accepted", async () => {
      await tab.selectOption("#provider", "gemini:gemini-3-pro-preview");
      await tab.fill("#input", "Read them again, please");
      await tab.click("#send");
      await turns(2);
      const who = await text(".message.ai .who");
      if (!who.includes("gemini:gemini-3-pro-preview")) throw new Error(`answered by ${who}`);
      const repairs = await text(".repairs");
      if (!repairs.some((r) => r.includes("for gemini"))) throw new Error(`repairs shown: ${repairs}`);
    });
    await check("the screenshot shows the conversation", async () => {
      const shot = await tab.screenshot();
      writeFileSync("chat.png", shot);
      writeFileSync("chat-empty.png", empty);
      const size = (png) => [png.readUInt32BE(16), png.readUInt32BE(20)];
      if (shot.subarray(1, 4).toString() !== "PNG" || size(shot).join("x") !== "1000x700") throw new Error(`not a 1000x700 PNG: ${size(shot)}`);
      if (shot.length < empty.length + 4000) throw new Error(`the screenshot (${shot.length} B) barely differs from the empty page's (${empty.length} B)`);
    });
    await check("a reload resumes the session from IndexedDB", async () => {
      const before = (await text(".message")).length;
      await tab.reload();
      await tab.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
      const after = (await text(".message")).length;
      if (after < 4) throw new Error(`${after} messages after the reload (${before} before)`);
      if ((await tab.$eval("#provider", (s) => s.value)) !== "gemini:gemini-3-pro-preview") throw new Error("the picker lost the session's provider");
    });
    await check("the chat's mock providers accepted every request", async () => {
      const stats = await (await fetch(new URL("/mock-stats.json", url))).json();
      if (stats.rejected !== 0 || stats.accepted !== 4) throw new Error(JSON.stringify(stats));
    });
    for (const p of problems) failures.push({ name: "no console warnings or errors", error: p });
    await tab.close();
  } finally {
    child.kill("SIGTERM");
  }
  return { runtime: "Chromium (browser-chat example)", passed, failed: failures.length, skipped: 0, failures, skips: [], report: {} };
}

/** Resolves an `exports` target for a list of conditions, in the map's own order. */
function resolveExport(target, conditions) {
  if (typeof target === "string") return target;
  if (target && typeof target === "object") {
    for (const [key, value] of Object.entries(target)) {
      if (key === "default" || conditions.includes(key)) {
        const found = resolveExport(value, conditions);
        if (found) return found;
      }
    }
  }
  return undefined;
}

const TYPES = { ".html": "text/html", ".mjs": "text/javascript", ".js": "text/javascript", ".json": "application/json", ".wasm": "application/wasm" };

/** Serves the consumer folder (or `root`) on 127.0.0.1 (port chosen by the system): the pages,
 * the test modules, fixtures.json and node_modules/turnwire. */
async function startServer(pages, root = resolve(".")) {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    const file = resolve(root, `.${path}`);
    const body = pages[path] ?? (req.method === "GET" && file.startsWith(root + sep) && existsSync(file) ? readFileSync(file) : undefined);
    if (body === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": TYPES[extname(path)] ?? TYPES[".html"], "cache-control": "no-store" }).end(body);
  });
  server.keepAliveTimeout = 1000;
  await new Promise((ok, fail) => server.once("error", fail).listen(0, "127.0.0.1", ok));
  return server;
}

async function chromium() {
  const pkg = JSON.parse(readFileSync("node_modules/turnwire/package.json", "utf8"));
  const conditions = ["browser", "import"];
  const imports = {};
  for (const subpath of [".", "./init", "./wasm", "./render"]) {
    const target = resolveExport(pkg.exports[subpath], conditions);
    imports[`turnwire${subpath.slice(1)}`] = `/node_modules/turnwire/${target.replace(/^\.\//, "")}`;
  }
  const page = (script) =>
    `<!doctype html><meta charset="utf-8"><title>turnwire</title><link rel="icon" href="data:,">\n` +
    `<script type="importmap">${JSON.stringify({ imports })}</script>\n` +
    `<script type="module" src="/${script}"></script>\n`;
  const server = await startServer({
    "/": page("browser.run.mjs"),
    "/init.html": page("browser-init.run.mjs"),
    "/render.html": page("browser-render.run.mjs"),
    "/session-save.html": page("browser-session.run.mjs"),
    "/session-load.html": page("browser-session.run.mjs"),
    "/mock.json": mockInfo,
  });
  const origin = `http://127.0.0.1:${server.address().port}`;
  const browser = await openChromium();
  const { context } = browser;
  try {
    const version = context.browser()?.version() ?? "";
    const results = [];
    for (const path of ["/", "/init.html", "/render.html", "/session-save.html", "/session-load.html"]) {
      const result = await pageResult(context, origin + path);
      result.runtime = result.runtime.replace(/^Chromium \S+/, `Chromium ${version}`);
      results.push(result);
    }
    const chat = await browserChat(context);
    chat.runtime = `Chromium ${version} (browser-chat example)`;
    results.push(chat);
    return results;
  } finally {
    await browser.close();
    server.closeAllConnections();
    await new Promise((ok) => server.close(ok));
  }
}

/** Headless Chromium with a fresh profile; `close()` ends it and removes the profile. */
async function openChromium() {
  const profile = mkdtempSync(join(tmpdir(), "turnwire-chromium-"));
  const { chromium } = requireTool("playwright-core");
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      timeout: 60_000,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--js-flags=--expose-gc",
        "--enable-precise-memory-info",
      ],
    });
    return {
      context,
      close: async () => {
        await context.close();
        rmSync(profile, { recursive: true, force: true });
      },
    };
  } catch (e) {
    rmSync(profile, { recursive: true, force: true });
    throw e;
  }
}

/** Opens `url` in a new tab and waits for the suite's summary in window.__turnwire; an HTTP
 * error, a console warning or error, or an uncaught error fails it. */
async function pageResult(context, url) {
  const tab = await context.newPage();
  const problems = [];
  tab.on("response", (r) => r.status() >= 400 && problems.push(`HTTP ${r.status()} for ${r.url()}`));
  tab.on("console", (m) => ["warning", "error"].includes(m.type()) && problems.push(`console.${m.type()}: ${m.text()}`));
  let pageError;
  const failed = new Promise((_, fail) => tab.on("pageerror", (e) => fail((pageError = e))));
  failed.catch(() => {});
  await tab.goto(url, { timeout: 30_000 });
  const path = new URL(url).pathname;
  const result = await Promise.race([
    tab.waitForFunction(() => window.__turnwire, null, { timeout: PER_RUNTIME_MS, polling: 100 }).then((h) => h.jsonValue()),
    failed,
  ]).catch((e) => {
    throw new Error(`${path}: ${pageError ? `uncaught ${pageError.stack ?? pageError}` : e.message}\n${problems.join("\n")}`);
  });
  for (const problem of problems) {
    result.failed++;
    result.failures.push({ name: `${path}: no console warnings or errors`, error: problem });
  }
  await tab.close();
  return result;
}

// ---- the recipes (tests/js/recipes/<name>: an app as a user would write it, installed by
// scripts/test-js.sh into $TURNWIRE_RECIPES/<name> from its committed lockfile, with the suite
// modules in lib/ and the packed turnwire copied into node_modules) ----

const RECIPES = resolve(process.env.TURNWIRE_RECIPES ?? "");
const recipeDir = (name) => {
  const dir = join(RECIPES, name);
  if (!existsSync(join(dir, "node_modules", "turnwire", "package.json"))) throw new Error(`${dir} is not installed (set TURNWIRE_RECIPES; scripts/test-js.sh installs it)`);
  return dir;
};
const FIXTURES_FILE = resolve("fixtures.json");
const sameBytes = (a, b) => Buffer.compare(readFileSync(a), readFileSync(b)) === 0;
const gzipBytes = (file) => gzipSync(readFileSync(file), { level: 9 }).length;

/** Adds `checks` ([name, ok, detail]) to the first of `results` as passed or failed tests. */
function withChecks(results, checks) {
  const [first] = results;
  for (const [name, ok, detail] of checks) {
    if (ok) first.passed++;
    else {
      first.failed++;
      first.failures.push({ name, error: String(detail ?? "false") });
    }
  }
  return results;
}

/** Runs a recipe's build step (node <script> ...args in the recipe's folder); fails with its output. */
function recipeBuild(dir, args, env = {}) {
  const started = Date.now();
  const r = spawnSync(process.execPath, args, {
    cwd: dir,
    encoding: "utf8",
    timeout: 300_000,
    killSignal: "SIGKILL",
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, NO_COLOR: "1", ...env },
  });
  if (r.status !== 0) throw new Error(`${args.join(" ")} failed (${r.status ?? r.signal ?? r.error})\n${r.stdout.slice(-6000)}${r.stderr.slice(-6000)}`);
  console.log(`  ${args[0].split("/").slice(-3).join("/")} ${args.slice(1).join(" ")}: ${seconds(Date.now() - started)}`);
  return r.stdout + r.stderr;
}

/** @edge-runtime/vm, code generation off, the wasm module injected from Node's realm. */
const edgeLight = () => runScriptAsync(process.execPath, ["edge.run.mjs", FIXTURES_FILE, mockInfo], {}, recipeDir("edge-light"));

// The Node binaries the Hono and Next.js recipes run on: this one, then the LTS lines
// scripts/test-js.sh installed (TURNWIRE_NODE_LTS_BINS, space-separated paths).
const NODE_BINS = [process.execPath, ...(process.env.TURNWIRE_NODE_LTS_BINS ?? "").split(" ").filter(Boolean)];
const NODE_LINES = NODE_BINS.map((bin) => spawnSync(bin, ["-p", "process.versions.node"], { encoding: "utf8" }).stdout.trim().split(".")[0]);

/** Hono: app.request, then @hono/node-server on 127.0.0.1; on every Node line. */
async function hono() {
  const results = [];
  for (const bin of NODE_BINS) results.push(await runScriptAsync(bin, ["hono.run.mjs", FIXTURES_FILE, mockInfo], {}, recipeDir("hono")));
  return results.flat();
}

/** Vite: `vite build`, dist/ served on 127.0.0.1 and opened in headless Chromium; then `vite dev`. */
async function vite() {
  const dir = recipeDir("vite");
  const dist = join(dir, "dist");
  rmSync(dist, { recursive: true, force: true });
  recipeBuild(dir, ["node_modules/vite/bin/vite.js", "build"]);
  const version = JSON.parse(readFileSync(join(dir, "node_modules/vite/package.json"), "utf8")).version;
  const wasm = readdirSync(join(dist, "assets")).filter((f) => f.endsWith(".wasm"));
  const packaged = join(dir, "node_modules/turnwire/dist/turnwire_bg.wasm");
  const checks = [
    ["vite build emitted one .wasm asset, turnwire_bg-<hash>.wasm", wasm.length === 1 && /^turnwire_bg-[\w-]+\.wasm$/.test(wasm[0]), wasm.join(", ")],
    ["the asset is the package's turnwire_bg.wasm, byte for byte", wasm.length === 1 && sameBytes(join(dist, "assets", wasm[0]), packaged)],
  ];
  const server = await startServer({ "/": readFileSync(join(dist, "index.html")), "/fixtures.json": readFileSync(FIXTURES_FILE), "/mock.json": mockInfo }, dist);
  const browser = await openChromium();
  const chromiumVersion = browser.context.browser()?.version() ?? "";
  let dev;
  try {
    const built = await pageResult(browser.context, `http://127.0.0.1:${server.address().port}/`);
    built.runtime = `Vite ${version} build, Chromium ${chromiumVersion}`;
    // vite dev serves the app folder: the page's two JSON files go beside index.html; the
    // dependency pre-bundling starts afresh (it moves turnwire's JS away from its .wasm)
    rmSync(join(dir, "node_modules/.vite"), { recursive: true, force: true });
    writeFileSync(join(dir, "fixtures.json"), readFileSync(FIXTURES_FILE));
    writeFileSync(join(dir, "mock.json"), mockInfo);
    const port = await freePort();
    dev = spawn(process.execPath, ["node_modules/vite/bin/vite.js", "--host", "127.0.0.1", "--port", String(port), "--strictPort"], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    await waitForOutput(dev, /ready in/, "vite dev");
    const served = await pageResult(browser.context, `http://127.0.0.1:${port}/`);
    served.runtime = `Vite ${version} dev, Chromium ${chromiumVersion}`;
    const optimized = join(dir, "node_modules/.vite/deps/_metadata.json");
    checks.push(["vite dev pre-bundled turnwire (no optimizeDeps.exclude needed)", existsSync(optimized) && "turnwire" in (JSON.parse(readFileSync(optimized, "utf8")).optimized ?? {})]);
    return withChecks([built, served], checks);
  } finally {
    await stopChild(dev);
    await browser.close();
    server.closeAllConnections();
    await new Promise((ok) => server.close(ok));
  }
}

/** Resolves once `child` printed a line matching `ready`; fails when it exits first or after 30 s. */
function waitForOutput(child, ready, what) {
  let out = "";
  return new Promise((ok, fail) => {
    const done = (error) => {
      clearTimeout(timer);
      child.stdout.removeListener("data", onData);
      child.stderr.removeListener("data", onData);
      if (error) fail(error);
      else ok(out);
    };
    const onData = (d) => {
      out += d;
      if (ready.test(out)) done();
    };
    const timer = setTimeout(() => done(new Error(`${what} is not ready after 30 s\n${out}`)), 30_000);
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => done(new Error(`${what} exited with ${code}\n${out}`)));
  });
}

/** Stops a server started here, by its pid, and waits for it to exit. */
async function stopChild(child) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((ok) => child.once("exit", ok));
  child.kill("SIGTERM");
  await exited;
}

/** The first fixture transcript that renders for `options`: its JSON text and Node's body bytes. */
function readmeTranscript(options) {
  for (const fixture of transcriptFixtures(fixtures)) {
    const text = fixture.files["transcript.json"];
    try {
      return { text, body: Buffer.from(nodeApi.renderBody(text, options)) };
    } catch {
      // an error golden: the next one
    }
  }
  throw new Error(`no fixture renders for ${JSON.stringify(options)}`);
}

/** A port the system has free now, on 127.0.0.1. */
async function freePort() {
  const probe = createServer();
  await new Promise((ok, fail) => probe.once("error", fail).listen(0, "127.0.0.1", ok));
  const { port } = probe.address();
  await new Promise((ok) => probe.close(ok));
  return port;
}

/**
 * Next.js: `next build` (Turbopack), checks of the edge function in the build's manifest, then,
 * on every Node line, `next start` on 127.0.0.1 and the fixtures POSTed to the Node.js route and
 * to the edge route; each server is stopped by its pid.
 */
async function next() {
  const dir = recipeDir("next");
  const env = { NEXT_TELEMETRY_DISABLED: "1" };
  const nextBin = "node_modules/next/dist/bin/next";
  rmSync(join(dir, ".next"), { recursive: true, force: true });
  const log = recipeBuild(dir, [nextBin, "build"], env);
  const version = JSON.parse(readFileSync(join(dir, "node_modules/next/package.json"), "utf8")).version;
  const server = join(dir, ".next/server");
  const edgeFunctions = JSON.parse(readFileSync(join(server, "middleware-manifest.json"), "utf8")).functions ?? {};
  const edgeFn = edgeFunctions["/api/edge/route"];
  const packaged = join(dir, "node_modules/turnwire/dist/turnwire_bg.wasm");
  // an edge function's own files (its chunks and wasm), and their size gzipped
  const edgeFiles = (fn) => (fn?.files ?? []).filter((f) => f.startsWith("server/edge/")).map((f) => join(dir, ".next", f));
  const edgeSize = (fn) => [...edgeFiles(fn), ...(fn?.wasm ?? []).map((w) => join(dir, ".next", w.filePath))].reduce((n, f) => n + gzipBytes(f), 0);
  const edgeJs = edgeFiles(edgeFn).map((f) => readFileSync(f, "utf8")).join("\n");
  const wasm = edgeFn?.wasm ?? [];
  const edgeGzip = edgeSize(edgeFn);
  const chatGzip = edgeSize(edgeFunctions["/api/chat-edge/route"]);
  const checks = [
    ["next build uses Turbopack", /Next\.js [\d.]+ \(Turbopack\)/.test(log), log.slice(0, 400)],
    ["next build warns that the edge runtime is deprecated", log.includes("The Edge Runtime is deprecated"), log.slice(-2000)],
    ["the manifest has the edge function /api/edge/route", Boolean(edgeFn)],
    ["with one wasm binding, the package's turnwire_bg.wasm byte for byte", wasm.length === 1 && sameBytes(join(dir, ".next", wasm[0].filePath), packaged), JSON.stringify(wasm)],
    ["and no .wasm among its assets (the edge glue has no default wasm URL)", !(edgeFn?.assets ?? []).some((a) => /\.wasm$/.test(a.filePath ?? a.name ?? "")), JSON.stringify(edgeFn?.assets)],
    ["its code is dist/edge-light.mjs with dist/edge-glue.mjs (the realm-independent check)", edgeJs.includes("[object WebAssembly.Module]") && !edgeJs.includes("instanceof WebAssembly.Module")],
    ["the edge function is under Vercel Hobby's 1 MB gzip limit", edgeGzip < 1_000_000, `${edgeGzip} bytes gzip`],
    ["so is the README's (/api/chat-edge), and it has the same one wasm binding", chatGzip > 0 && chatGzip < 1_000_000 && edgeFunctions["/api/chat-edge/route"]?.wasm?.length === 1, `${chatGzip} bytes gzip`],
  ];
  const results = [];
  // one build, started on every Node line
  for (const bin of NODE_BINS) results.push(...(await nextStart(dir, bin, version)));
  console.log(`  next: edge functions ${edgeGzip} bytes gzip with the suite, ${chatGzip} the README's route (wasm ${wasm.map((w) => gzipBytes(join(dir, ".next", w.filePath))).join(", ")}); Node route wasm as a server asset: ${existsSync(join(server, "assets")) ? readdirSync(join(server, "assets")).filter((f) => f.endsWith(".wasm")).join(", ") || "none" : "none"}`);
  return withChecks(results, checks);
}

/** `next start` with `bin` on 127.0.0.1; the fixtures POSTed to both routes; stopped by its pid. */
async function nextStart(dir, bin, version) {
  const port = await freePort();
  const node = spawnSync(bin, ["-p", "process.versions.node"], { encoding: "utf8" }).stdout.trim();
  const child = spawn(bin, ["node_modules/next/dist/bin/next", "start", "-H", "127.0.0.1", "-p", String(port)], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: "1", NEXT_TELEMETRY_DISABLED: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  try {
    await waitForOutput(child, /Ready in/, "next start");
    const results = [];
    for (const [route, label] of [["node", "Node.js runtime"], ["edge", "edge runtime"]]) {
      const response = await fetch(`http://127.0.0.1:${port}/api/${route}`, {
        method: "POST",
        body: readFileSync(FIXTURES_FILE),
        headers: { "content-type": "application/json", "x-turnwire-mock": mockInfo },
        signal: AbortSignal.timeout(PER_RUNTIME_MS),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`/api/${route} answered ${response.status}: ${text.slice(0, 4000)}\n${out.slice(-4000)}`);
      results.push({ runtime: `Next.js ${version} route handler, ${label} (next start, Node ${node})`, ...JSON.parse(text) });
    }
    // the README's route handlers (app/api/chat, app/api/chat-edge) answer renderBody's bytes
    const { text: transcript, body: expected } = readmeTranscript({ provider: "anthropic", model: "claude-sonnet-4-5" });
    const checks = [];
    for (const route of ["chat", "chat-edge"]) {
      const response = await fetch(`http://127.0.0.1:${port}/api/${route}`, { method: "POST", body: transcript, signal: AbortSignal.timeout(30_000) });
      const bytes = Buffer.from(await response.arrayBuffer());
      checks.push([`the README's /api/${route} answers renderBody's bytes`, response.ok && bytes.equals(expected), `HTTP ${response.status}: ${bytes.toString("utf8", 0, 400)}`]);
    }
    return withChecks(results, checks);
  } finally {
    await stopChild(child);
  }
}

// name, run, entries (one per page or script), requests the suite sends to the mock providers
// (2 turns x 2 providers; Chromium's turnwire/render page adds 1 turn x 2 providers)
const RUNS = [
  ["deno", deno, ["dist/deno.mjs"], 0],
  ["bun", bun, ["dist/node.mjs"], 0],
  // PER_SUITE: the stream suite's mock turns in each run of it (Chromium: and turnwire/render's two)
  ["workerd", workerd, ["dist/workerd.mjs"], PER_SUITE],
  ["chromium", chromium, ["dist/browser.mjs", "dist/turnwire.js (./init)", "dist/render-browser.mjs (./render)", "dist/browser.mjs (session save)", "dist/browser.mjs (session load)", "examples/browser-chat"], PER_SUITE + 2],
  ["deno-session", denoSession, ["dist/deno.mjs (session save)", "dist/deno.mjs (session load)"], 0],
  ["edge", edge, ["examples/edge (workerd, KV)", "examples/edge (Deno)"], 4],
  ["edge-light", edgeLight, ["dist/edge-light.mjs (@edge-runtime/vm)"], PER_SUITE],
  ["hono", hono, NODE_LINES.flatMap((n) => [`dist/node.mjs (Hono app.request, Node ${n})`, `dist/node.mjs (Hono node-server, Node ${n})`]), 2 * PER_SUITE * NODE_BINS.length],
  ["vite", vite, ["dist/browser.mjs (Vite build)", "dist/browser.mjs (vite dev)"], 2 * PER_SUITE],
  ["next", next, NODE_LINES.flatMap((n) => [`dist/node.mjs (Next.js Node route, Node ${n})`, `dist/edge-light.mjs (Next.js edge route, Node ${n})`]), 2 * PER_SUITE * NODE_BINS.length],
];

const unknown = ONLY?.filter((name) => !RUNS.some(([n]) => n === name)) ?? [];
if (unknown.length) throw new Error(`TURNWIRE_ONLY: unknown runtime ${unknown.join(", ")} (${RUNS.map(([n]) => n).join(", ")})`);

const rows = [];
let ok = true;
for (const [name, run, entries, mockRequests] of RUNS) {
  const entry = entries[0];
  if (ONLY && !ONLY.includes(name)) continue;
  const started = Date.now();
  let results;
  try {
    results = [await run()].flat();
    const problems = mockProblems(mockRequests);
    for (const error of problems) {
      results[0].failed++;
      results[0].failures.push({ name: "the strict mock providers accepted every request", error });
    }
  } catch (e) {
    mock.reset();
    ok = false;
    console.log(`\n${name}: FAILED TO RUN\n${String(e?.stack ?? e).replace(/^/gm, "    ")}`);
    rows.push({ runtime: name, entry, tests: "did not run", time: seconds(Date.now() - started), digest: "-" });
    continue;
  }
  results.forEach((r, i) => {
    for (const f of r.failures) console.log(`\n${r.runtime}: not ok ${f.name}\n${f.error.replace(/^/gm, "    ")}`);
    for (const s of r.skips) console.log(`${r.runtime}: skipped ${s.name} (${s.reason})`);
    if (r.failed > 0 || r.passed === 0) ok = false;
    rows.push({
      runtime: r.runtime,
      entry: entries[i] ?? "?",
      tests: `${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped`,
      time: i === 0 ? seconds(Date.now() - started) : "",
      digest: r.report.digest ?? "-",
      session: r.report.session,
    });
  });
}

// The two Node runs (node:test, before this) wrote their digests.
const nodeRows = ["node-esm", "node-cjs"].map((label) => {
  const file = DIGESTS && join(DIGESTS, `${label}.json`);
  const entry = label === "node-esm" ? "dist/node.mjs" : "dist/node.cjs";
  if (!file || !existsSync(file)) return { runtime: `Node (${label})`, entry, tests: "no digest: did node:test run?", time: "", digest: "-" };
  const { runtime, digest } = JSON.parse(readFileSync(file, "utf8"));
  return { runtime, entry, tests: "node:test, above", time: "", digest };
});
rows.unshift(...nodeRows);

const cols = ["runtime", "entry", "tests", "time", "digest"];
const all = [Object.fromEntries(cols.map((c) => [c, c])), ...rows, { runtime: "Rust goldens (tests/fixtures)", entry: "", tests: "", time: "", digest: golden }];
const width = (key) => Math.max(...all.map((r) => r[key].length));
console.log(`\nsame inputs -> same bytes: SHA-256 over the bodies of ${transcriptFixtures(fixtures).length} fixtures x ${Object.keys(MODELS).length} providers`);
for (const r of all) console.log(cols.map((c) => r[c].padEnd(width(c))).join("  ").trimEnd());

// Every runtime that rendered the fixtures must report the goldens' digest.
const rendersFixtures = (entry) => !entry.includes("./init") && !entry.includes("session") && !entry.includes("examples/");
const rendering = rows.filter((r) => rendersFixtures(r.entry));
const expected = 2 + RUNS.filter(([name]) => !ONLY || ONLY.includes(name)).reduce((n, [, , entries]) => n + entries.filter(rendersFixtures).length, 0);
const agreeing = rendering.filter((r) => r.digest === golden).length;
if (agreeing !== expected || rendering.length !== expected) {
  ok = false;
  console.log(`\nFAIL: ${agreeing} of ${expected} runtimes report the goldens' digest`);
} else {
  console.log(`\n${agreeing} of ${expected} runtimes: byte-identical bodies, equal to the Rust goldens`);
}

// Resume fidelity: every page or process that saved or loaded the session reports the digest of
// the next request for every provider; all must equal what Node renders from the same history.
const nodeConversation = new nodeApi.Conversation(sessionHistory());
const nodeSession = await nextRequestsDigest(nodeApi, nodeConversation);
nodeConversation.free();
const sessionRows = rows.filter((r) => r.entry.includes("session"));
const expectedSessions = RUNS.filter(([name]) => !ONLY || ONLY.includes(name)).reduce((n, [, , entries]) => n + entries.filter((e) => e.includes("session")).length, 0);
console.log(`
resume fidelity: the next request of a saved session, SHA-256 over ${Object.keys(MODELS).length} providers (Node: ${nodeSession})`);
for (const r of sessionRows) console.log(`  ${r.runtime.padEnd(40)} ${r.entry.padEnd(32)} ${r.session ?? "-"}`);
const resumed = sessionRows.filter((r) => r.session === nodeSession).length;
if (resumed !== expectedSessions || sessionRows.length !== expectedSessions) {
  ok = false;
  console.log(`FAIL: ${resumed} of ${expectedSessions} session saves and loads render Node's next request`);
} else {
  console.log(`${resumed} of ${expectedSessions} session saves and loads: the same next request as Node's`);
}
if (!ok) console.log("FAIL: see the failures above");
await mock.close();
process.exitCode = ok ? 0 : 1;
