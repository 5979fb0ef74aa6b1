// A writer process for the crash trials of stores.test.mjs: appends (and now and then saves) one
// session in a file store as fast as it can, and after each write that resolved, records the
// message in its report file with a synchronous append. The test kills it with SIGKILL at a
// random moment, starts it again, and checks that every message reported is in the session.
//
//   <runtime> store-writer.mjs <dir> <session id> <writer name> <report file>
import { appendFileSync } from "node:fs";
import { fileStore } from "turnwire/file-store";

const [dir, id, name, report] = process.argv.slice(2);
const store = fileStore(dir);
// go on from what this writer already wrote (its last number), as a restarted agent would
const loaded = await store.load(id);
let i = 0;
for (const m of loaded?.transcript ?? []) {
  const [who, n] = String(m.blocks?.[0]?.text ?? "").split("-");
  if (who === name) i = Math.max(i, Number(n));
}
for (;;) {
  i++;
  const message = { speaker: "human", blocks: [{ type: "text", text: `${name}-${i}` }] };
  if (i % 5 === 0) {
    // a whole save, conditional on the version it read: a conflict reads again and retries
    for (;;) {
      const data = (await store.load(id)) ?? { version: 1, transcript: [], usage: {}, savedAt: "" };
      data.transcript.push(message);
      try {
        await store.save(id, data, { ifVersion: data.storeVersion ?? null });
        break;
      } catch (e) {
        if (e?.code !== "session_conflict") throw e;
      }
    }
  } else {
    await store.append(id, [message]);
  }
  appendFileSync(report, `${name}-${i}\n`);
}
