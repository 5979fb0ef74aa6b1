// Runs the Hono recipe (app.mjs, the suite's route, and chat.mjs, the README's) twice, as
// tests/js/runtimes/run.mjs asks, in target/js-recipes/hono (hono and @hono/node-server
// installed, the packed turnwire copied in):
//   1. without a server: `app.request(…)`, Hono's own test path;
//   2. behind @hono/node-server's `serve` on 127.0.0.1 (a port the system picks), with the
//      adapter's default global Request/Response replacement, then the server is closed.
// Prints `TURNWIRE_RESULT [<summary>, <summary>]`, one per run.
//   node hono.run.mjs <fixtures.json> [<mock json>]
import { readFileSync } from "node:fs";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { renderBody } from "turnwire";
import { app as suite } from "./app.mjs";
import { app as chat } from "./chat.mjs";

const [fixturesFile, mock] = process.argv.slice(2);
// hono exports no ./package.json: read the installed manifests
const version = (name) => JSON.parse(readFileSync(new URL(`./node_modules/${name}/package.json`, import.meta.url), "utf8")).version;
const body = readFileSync(fixturesFile);
const headers = { "content-type": "application/json", ...(mock ? { "x-turnwire-mock": mock } : {}) };
const entry = import.meta.resolve("turnwire");
// the suite's route and the README's (chat.mjs) in one app
const app = new Hono().route("/", suite).route("/", chat);
// the README's route must answer what renderBody writes for a fixture's transcript
const transcript = JSON.parse(body).find((f) => f.files?.["transcript.json"] && !JSON.parse(f.files["gemini.json"]).error).files["transcript.json"];
const chatBody = renderBody(transcript, { provider: "gemini", model: "gemini-2.5-pro" });

/** POSTs the transcript to /chat with `send`; a failure when the answer is not chatBody. */
async function chatCheck(send) {
  const response = await send("/chat", { method: "POST", body: transcript });
  const bytes = new Uint8Array(await response.arrayBuffer());
  const same = response.ok && bytes.length === chatBody.length && bytes.every((b, i) => b === chatBody[i]);
  return same ? null : { name: "the README's route (chat.mjs) answers renderBody's bytes", error: `HTTP ${response.status}, ${bytes.length} bytes, expected ${chatBody.length}` };
}

async function summary(runtime, response, chatFailure) {
  const text = await response.text();
  if (!response.ok) throw new Error(`${runtime}: HTTP ${response.status} ${text.slice(0, 2000)}`);
  const result = { runtime, ...JSON.parse(text) };
  // the app must have loaded the package's Node entry
  const failures = [entry.endsWith("/node_modules/turnwire/dist/node.mjs") ? null : { name: "import resolves dist/node.mjs", error: entry }, chatFailure];
  for (const failure of failures) {
    if (!failure) result.passed++;
    else {
      result.failed++;
      result.failures.push(failure);
    }
  }
  return result;
}

const results = [];
const hono = `Hono ${version("hono")}`;
const request = (path, init) => app.request(path, init);
results.push(await summary(`${hono} app.request (Node ${process.versions.node})`, await request("/suite", { method: "POST", body, headers }), await chatCheck(request)));

const { server, port } = await new Promise((ok) => {
  const server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, (info) => ok({ server, port: info.port }));
});
try {
  const send = (path, init) => fetch(`http://127.0.0.1:${port}${path}`, { ...init, signal: AbortSignal.timeout(120_000) });
  const response = await send("/suite", { method: "POST", body, headers });
  results.push(await summary(`${hono} + @hono/node-server ${version("@hono/node-server")} (Node ${process.versions.node})`, response, await chatCheck(send)));
} finally {
  server.closeAllConnections?.();
  await new Promise((ok) => server.close(ok));
}
console.log(`TURNWIRE_RESULT ${JSON.stringify(results)}`);
process.exitCode = results.every((r) => r.failed === 0 && r.passed > 0) ? 0 : 1;
