// The file store's costs on a large session (make bench runs it after run.mjs; not part of make
// test): a save of a ~50 MB session, the mean of 100 appends to it (each synced to disk, under
// the session's lock: an append reads the snapshot's first bytes and the log's first line and
// end, never the history, so it costs the same on a 2-message session), and a load.
//
//   node bench/file-store.mjs [messages]   (default 20000, each ~2.5 KB of text)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const { fileStore } = await import(pathToFileURL(join(import.meta.dirname ?? new URL(".", import.meta.url).pathname, "..", "pkg", "dist", "file-store.mjs")).href);
const count = Number(process.argv[2] ?? 20_000);
const dir = mkdtempSync(join(tmpdir(), "turnwire-bench-store-"));
try {
  for (const n of [2, count]) {
    const store = fileStore(dir);
    const id = `s${n}`;
    const text = "x".repeat(2_500);
    const transcript = Array.from({ length: n }, (_, i) => ({ speaker: i % 2 ? "ai" : "human", blocks: [{ type: "text", text: `${text}${i}` }] }));
    let t = performance.now();
    await store.save(id, { version: 1, transcript, usage: {}, savedAt: "" });
    const save = performance.now() - t;
    t = performance.now();
    for (let i = 0; i < 100; i++) await store.append(id, [{ speaker: "human", blocks: [{ type: "text", text: `m${i}` }] }]);
    const append = (performance.now() - t) / 100;
    t = performance.now();
    const loaded = await store.load(id);
    const load = performance.now() - t;
    console.log(`file store, ${n.toLocaleString("en")} messages: save ${save.toFixed(0)} ms, append ${append.toFixed(2)} ms (mean of 100, synced), load ${load.toFixed(0)} ms (${loaded.transcript.length.toLocaleString("en")} messages)`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
