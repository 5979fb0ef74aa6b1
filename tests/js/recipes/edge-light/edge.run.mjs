// The strict edge check (run by tests/js/runtimes/run.mjs in target/js-recipes/edge-vm, where
// @edge-runtime/vm and esbuild are installed and the packed turnwire is copied in):
//   1. esbuild bundles app.mjs for the edge as Vercel's own edge bundler does (platform browser,
//      conditions edge-light + development), with a plugin that turns `*.wasm?module` imports into
//      a global `wasm_<sha1>` as Next and `vercel dev` do; the bundle must use dist/edge-light.mjs
//      and no other glue, and esbuild must accept it as an IIFE (no top-level await);
//   2. the wasm is compiled here, in Node's realm, and injected into an @edge-runtime/vm context
//      whose code generation is off (strings and wasm: what Vercel's edge refuses), exactly the
//      cross-realm module that Next's local sandbox hands to an edge route;
//   3. the suite runs in that context; it also checks that eval and wasm from bytes do throw there;
//   4. the control: wasm-bindgen's unpatched glue (turnwire/init), given the same injected module,
//      throws, so the brand check in dist/edge-glue.mjs is what makes 3 work.
// Prints `TURNWIRE_RESULT <json>` last, as the other runtimes' scripts do.
//   node edge.run.mjs <fixtures.json> [<mock json>]
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, resolve } from "node:path";
import { EdgeVM } from "@edge-runtime/vm";
import * as esbuild from "esbuild";

const [fixturesFile, mockText = ""] = process.argv.slice(2);
const require = createRequire(import.meta.url);
const checks = [];
const check = (name, ok, detail = "") => checks.push({ name, ok: Boolean(ok), detail });

/** `*.wasm?module` → `globalThis["wasm_<sha1 of the path>"]`; returns the files it saw. */
function wasmModulePlugin(seen) {
  return {
    name: "wasm-module",
    setup(build) {
      build.onResolve({ filter: /\?module$/ }, async (args) => {
        const target = await build.resolve(args.path.slice(0, -"?module".length), { kind: args.kind, resolveDir: args.resolveDir });
        if (target.errors.length) return { errors: target.errors };
        return { path: target.path, namespace: "wasm-module" };
      });
      build.onLoad({ filter: /.*/, namespace: "wasm-module" }, (args) => {
        const name = `wasm_${createHash("sha1").update(args.path).digest("hex")}`;
        seen.set(name, args.path);
        return { contents: `export default globalThis[${JSON.stringify(name)}];`, loader: "js" };
      });
    },
  };
}

async function bundle(entry, seen) {
  const out = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    conditions: ["edge-light", "development"],
    metafile: true,
    logLevel: "silent",
    plugins: [wasmModulePlugin(seen)],
  });
  return { code: out.outputFiles[0].text, inputs: Object.keys(out.metafile.inputs) };
}

/** A context like Vercel's edge: code generation off; the modules compiled out here, injected. */
function edgeVm(modules, codeGeneration) {
  return new EdgeVM({
    codeGeneration,
    extend: (context) => Object.assign(context, modules),
  });
}

const seen = new Map();
const app = await bundle("app.mjs", seen);
const dist = (f) => app.inputs.includes(`node_modules/turnwire/dist/${f}`);
check("the bundle resolved dist/edge-light.mjs and its glue", dist("edge-light.mjs") && dist("edge-glue.mjs"), app.inputs.filter((i) => i.includes("turnwire/")).join(", "));
check("and no other entry or glue", !["browser.mjs", "node.mjs", "workerd.mjs", "turnwire.js"].some(dist));
check("no import.meta.url left in the bundle", !app.code.includes("import.meta"));
check("one ?module import: the package's turnwire_bg.wasm", seen.size === 1 && [...seen.values()][0] === require.resolve("turnwire/wasm"), [...seen.values()].join(", "));

// Node's realm compiles; the edge realm only receives the modules.
const modules = {};
for (const [name, file] of seen) modules[name] = await WebAssembly.compile(readFileSync(file));
const vm = edgeVm(modules, { strings: false, wasm: false });
check("the injected module is from another realm (instanceof is false in the VM)", vm.evaluate(`${[...seen.keys()][0]} instanceof WebAssembly.Module`) === false);
vm.evaluate(app.code);
const summary = JSON.parse(await vm.evaluate("__turnwireRun")(readFileSync(fixturesFile, "utf8"), mockText));

// The control, in a context that does allow wasm code generation (as `next start` does).
const seenControl = new Map();
const control = await bundle("unpatched.mjs", seenControl);
const controlModules = {};
for (const [name, file] of seenControl) controlModules[name] = await WebAssembly.compile(readFileSync(file));
const controlVm = edgeVm(controlModules, { strings: false, wasm: true });
controlVm.evaluate(control.code);
const unpatched = controlVm.evaluate("__turnwireUnpatched()");
check("control: wasm-bindgen's own initSync throws on the cross-realm module", /^TypeError: WebAssembly\.Module\(\): Argument 0 must be a buffer source/.test(unpatched), unpatched);

for (const c of checks) {
  if (c.ok) summary.passed++;
  else {
    summary.failed++;
    summary.failures.push({ name: c.name, error: c.detail || "false" });
  }
}
const vmVersion = require("@edge-runtime/vm/package.json").version;
const result = { runtime: `@edge-runtime/vm ${vmVersion} (Node ${process.version}, codegen off)`, ...summary, report: { ...summary.report, unpatched } };
console.log(`TURNWIRE_RESULT ${JSON.stringify(result)}`);
process.exitCode = summary.failed === 0 && summary.passed > 0 ? 0 : 1;
