// Runs the Hono recipe (app.mjs) twice, as tests/js/runtimes/run.mjs asks, in
// target/js-recipes/hono (hono and @hono/node-server installed, the packed turnwire copied in):
//   1. without a server: `app.request("/suite", …)`, Hono's own test path;
//   2. behind @hono/node-server's `serve` on 127.0.0.1 (a port the system picks), with the
//      adapter's default global Request/Response replacement, then the server is closed.
// Prints `TURNWIRE_RESULT [<summary>, <summary>]`, one per run.
//   node hono.run.mjs <fixtures.json> [<mock json>]
import { readFileSync } from "node:fs";
import { serve } from "@hono/node-server";
import { app } from "./app.mjs";

const [fixturesFile, mock] = process.argv.slice(2);
// hono exports no ./package.json: read the installed manifests
const version = (name) => JSON.parse(readFileSync(new URL(`./node_modules/${name}/package.json`, import.meta.url), "utf8")).version;
const body = readFileSync(fixturesFile);
const headers = { "content-type": "application/json", ...(mock ? { "x-turnwire-mock": mock } : {}) };
const entry = import.meta.resolve("turnwire");

async function summary(runtime, response) {
  const text = await response.text();
  if (!response.ok) throw new Error(`${runtime}: HTTP ${response.status} ${text.slice(0, 2000)}`);
  const result = { runtime, ...JSON.parse(text) };
  // the app must have loaded the package's Node entry
  if (entry.endsWith("/node_modules/turnwire/dist/node.mjs")) result.passed++;
  else {
    result.failed++;
    result.failures.push({ name: "import resolves dist/node.mjs", error: entry });
  }
  return result;
}

const results = [];
const hono = `Hono ${version("hono")}`;
results.push(await summary(`${hono} app.request (Node ${process.versions.node})`, await app.request("/suite", { method: "POST", body, headers })));

const { server, port } = await new Promise((ok) => {
  const server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, (info) => ok({ server, port: info.port }));
});
try {
  const response = await fetch(`http://127.0.0.1:${port}/suite`, { method: "POST", body, headers, signal: AbortSignal.timeout(120_000) });
  results.push(await summary(`${hono} + @hono/node-server ${version("@hono/node-server")} (Node ${process.versions.node})`, response));
} finally {
  server.closeAllConnections?.();
  await new Promise((ok) => server.close(ok));
}
console.log(`TURNWIRE_RESULT ${JSON.stringify(results)}`);
process.exitCode = results.every((r) => r.failed === 0 && r.passed > 0) ? 0 : 1;
