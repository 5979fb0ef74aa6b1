// The README's "Install / use from JavaScript" example, run as written: the first ```js block
// of that section must print exactly the ```text block that follows it.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { test } from "node:test";

test("the README's JavaScript example runs and prints what the README says", () => {
  const readme = readFileSync(process.env.TURNWIRE_README, "utf8");
  const section = readme.split(/^## /m).find((s) => s.startsWith("Install / use from JavaScript"));
  assert.ok(section, "README has no 'Install / use from JavaScript' section");
  const code = section.match(/```js\n([\s\S]*?)```/)?.[1];
  const expected = section.match(/```js\n[\s\S]*?```[\s\S]*?```text\n([\s\S]*?)```/)?.[1];
  assert.ok(code && expected, "the section needs a ```js example followed by a ```text output block");
  writeFileSync("readme-example.mjs", code);
  const out = execFileSync(process.execPath, ["readme-example.mjs"], { encoding: "utf8" });
  assert.equal(out, expected);
});
