// The README's JavaScript examples, run as written against the installed package:
//   - "Install / use from JavaScript" and "Streaming a turn" (against turnwire/mock): the first
//     ```js block must print exactly the ```text block that follows it (Node, ESM);
//   - "Ten lines per runtime": every ```js block starts with `// <Runtime> (...)` and ends with
//     `// prints: <output>` (the Worker: `// answers: <start of the body>…`); it runs in that runtime (Node CommonJS, Deno, Bun; the browser
//     example in Node, which has the globals it uses; the Workers example is imported in Node
//     and its `fetch` handler called) and must print that output.
//   - "Use turnwire with the stack you have": every ```js block that starts with `// <library>`
//     ends with `// prints: <output>`; it runs in Node from the directory the SDKs are installed
//     in (TURNWIRE_MOCK_SDK, with turnwire linked into it) and must print that output.
// Deno and Bun come from TURNWIRE_RUNTIMES (tests/js/runtimes/install.sh); without them those
// two examples are skipped (TURNWIRE_JS_RUNTIMES=node).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, test } from "node:test";
import { pathToFileURL } from "node:url";

const readme = readFileSync(process.env.TURNWIRE_README, "utf8");
const sections = readme.split(/^## /m);
const section = (title) => {
  const found = sections.find((s) => s.startsWith(title));
  assert.ok(found, `README has no '${title}' section`);
  return found;
};
const run = (cmd, args, env = {}) =>
  execFileSync(cmd, args, { encoding: "utf8", env: { ...process.env, ...env } });

for (const [title, file] of [
  ["Install / use from JavaScript", "readme-example.mjs"],
  ["Streaming a turn", "readme-streaming.mjs"],
  ["Use turnwire with the stack you have", "readme-import.mjs"],
]) {
  test(`the README's "${title}" example runs and prints what the README says`, () => {
    const s = section(title);
    const code = s.match(/```js\n([\s\S]*?)```/)?.[1];
    const expected = s.match(/```js\n[\s\S]*?```[\s\S]*?```text\n([\s\S]*?)```/)?.[1];
    assert.ok(code && expected, "the section needs a ```js example followed by a ```text output block");
    writeFileSync(file, code);
    assert.equal(run(process.execPath, [file]), expected);
  });
}

describe("the README's per-library examples run against the pinned libraries", () => {
  const blocks = [...section("Use turnwire with the stack you have").matchAll(/```js\n(\/\/ [\s\S]*?)```/g)].map((m) => m[1]);
  const sdkDir = resolve(process.env.TURNWIRE_MOCK_SDK ?? "../js-mock-sdk");

  test("there is one for the official clients, the AI SDK and pi-ai", () => {
    const names = blocks.map((b) => b.split("\n")[0]);
    assert.deepEqual(names.map((n) => n.split(" ")[1]), ["@anthropic-ai/sdk", "The", "pi-ai"]);
    for (const b of blocks) assert.match(b, /\/\/ prints: .+\n$/);
  });

  for (const code of blocks) {
    test(code.split("\n")[0].slice(3), () => {
      // the example imports its library and turnwire: both must resolve from where it runs
      const linked = join(sdkDir, "node_modules", "turnwire");
      try {
        unlinkSync(linked);
      } catch {
        // not linked yet
      }
      mkdirSync(join(sdkDir, "node_modules"), { recursive: true });
      symlinkSync(realpathSync(join("node_modules", "turnwire")), linked, "dir");
      const file = join(sdkDir, "readme-library.mjs");
      writeFileSync(file, code);
      const expected = code.match(/\/\/ prints: (.+)\n$/)?.[1] ?? "";
      assert.equal(run(process.execPath, [file]), `${expected}\n`);
    });
  }
});

describe("the README's recipes are the files of the tested apps (tests/js/recipes)", () => {
  const blocks = [...section("Recipes: Vite, Next.js, Hono").matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
  const apps = { "Next.js": "next", Hono: "hono" };
  const recipes = resolve(process.env.TURNWIRE_README, "..", "tests", "js", "recipes");

  test("one block per file: the two Next.js route handlers, the Hono app", () => {
    assert.deepEqual(
      blocks.map((b) => b.split("\n")[0].match(/^\/\/ ([^:]+): (\S+)/)?.slice(1).join(" ")),
      ["Next.js app/api/chat/route.js", "Next.js app/api/chat-edge/route.js", "Hono chat.mjs"],
    );
  });

  for (const code of blocks) {
    const [, app, file] = code.split("\n")[0].match(/^\/\/ ([^:]+): (\S+)/) ?? [];
    test(`${app}: ${file}`, () => {
      assert.ok(apps[app], `no recipe app for ${app}`);
      assert.equal(code, readFileSync(join(recipes, apps[app], file), "utf8"));
    });
  }
});

describe("the README's ten-line examples run in their runtimes", () => {
  const blocks = [...section("Ten lines per runtime").matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
  const runtimesDir = process.env.TURNWIRE_RUNTIMES ? resolve(process.env.TURNWIRE_RUNTIMES) : "";
  const bin = (name) => join(runtimesDir, "node_modules", ".bin", name);

  test("there is one example per runtime, each with its expected output", () => {
    const names = blocks.map((b) => b.match(/^\/\/ ([^(,]+?)(?:,[^(]*)? \(/)?.[1]);
    assert.deepEqual(names, ["Node.js", "Deno", "Bun", "Browser", "Cloudflare Workers"]);
    for (const b of blocks) {
      assert.ok(b.split("\n").length <= 12, `more than ten lines:\n${b}`);
      assert.match(b, /\/\/ (prints|answers): .+\n$/);
    }
  });

  for (const code of blocks) {
    const runtime = code.match(/^\/\/ ([^(,]+?)(?:,[^(]*)? \(/)?.[1] ?? "?";
    const expected = code.match(/\/\/ (?:prints|answers): (.+)\n$/)?.[1] ?? "";
    const skip =
      (runtime === "Deno" || runtime === "Bun") && !existsSync(bin(runtime.toLowerCase()))
        ? `${runtime} is not installed (TURNWIRE_RUNTIMES)`
        : false;
    test(runtime, { skip }, async () => {
      switch (runtime) {
        case "Node.js":
          writeFileSync("readme-node.cjs", code);
          assert.equal(run(process.execPath, ["readme-node.cjs"]), `${expected}\n`);
          break;
        case "Deno":
          writeFileSync("readme-deno.mjs", code);
          assert.equal(
            run(bin("deno"), ["run", "--no-prompt", "readme-deno.mjs"], { DENO_DIR: join(runtimesDir, ".deno"), NO_COLOR: "1" }),
            `${expected}\n`,
          );
          break;
        case "Bun":
          writeFileSync("readme-bun.mjs", code);
          assert.equal(run(bin("bun"), ["readme-bun.mjs"], { DO_NOT_TRACK: "1" }), `${expected}\n`);
          break;
        case "Browser":
          writeFileSync("readme-browser.mjs", code);
          assert.equal(run(process.execPath, ["readme-browser.mjs"]), `${expected}\n`);
          break;
        case "Cloudflare Workers": {
          writeFileSync("readme-worker.mjs", code);
          const worker = (await import(pathToFileURL(resolve("readme-worker.mjs")).href)).default;
          const history = JSON.stringify([{ speaker: "human", blocks: [{ type: "text", text: "hi" }] }]);
          const res = await worker.fetch(new Request("http://worker.test/", { method: "POST", body: history }));
          assert.equal(res.headers.get("content-type"), "application/json");
          const text = await res.text();
          // The README shows the answer's start, then an ellipsis.
          const shown = expected.slice(0, expected.indexOf("…"));
          assert.ok(shown.length > 10 && text.startsWith(shown), `${text.slice(0, 80)} does not start with ${shown}`);
          break;
        }
        default:
          assert.fail(`unknown runtime in the README: ${runtime}`);
      }
    });
  }
});
