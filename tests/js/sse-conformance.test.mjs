// turnwire's SSE parser (SseParser) against eventsource-parser, the well-kept npm parser we chose
// not to depend on (js/sse.mts says why): realistic streams of all eight providers (every golden
// stream in tests/fixtures/streams, framed as each provider sends it, and in variants with CRLF,
// bare CR, multi-line data, ids, retry fields, comments, unknown fields and a BOM) and the WHATWG
// edge cases of stream-suite.mjs, cut at random byte offsets, must give the same events to both.
// eventsource-parser is a dev dependency of the test tooling only (tests/js/mock-sdk/package.json,
// installed into $TURNWIRE_MOCK_SDK); it is fed the way its own EventSourceParserStream is meant to
// be used: bytes → TextDecoderStream → EventSourceParserStream.
//
// Known, deliberate difference: a stream whose very last byte is a bare CR. The spec makes that
// CR a line end (so a last "data: x\r\r" is dispatched, stream-suite.mjs tests it); eventsource-parser
// keeps a trailing CR back waiting for a possible LF and never dispatches it. The variants below
// therefore never end on a bare CR.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { describe, test } from "node:test";
import { pathToFileURL } from "node:url";
import { SseParser } from "turnwire";
import { loadFixtures } from "./fixtures.mjs";
import { eventLines, eventName, frameSSE, randomSplit, rng, SSE_CASES } from "./stream-suite.mjs";

const SDK_DIR = resolve(process.env.TURNWIRE_MOCK_SDK ?? "../js-mock-sdk");
const requireSdk = createRequire(join(SDK_DIR, "package.json"));
const esp = await import(pathToFileURL(requireSdk.resolve("eventsource-parser/stream")).href);
const espCore = await import(pathToFileURL(requireSdk.resolve("eventsource-parser")).href);
const espVersion = JSON.parse(readFileSync(join(SDK_DIR, "node_modules/eventsource-parser/package.json"), "utf8")).version;
// the eight providers that stream SSE (Bedrock's event stream and Ollama's NDJSON are not SSE)
const streams = loadFixtures(process.env.TURNWIRE_FIXTURES).filter((f) => f.stream && f.stream.provider !== "bedrock-converse" && f.stream.provider !== "ollama");
const encoder = new TextEncoder();

/** turnwire's parser on byte chunks: { events: [{event, id, data}], retries, comments }. */
function ours(chunks) {
  const out = { events: [], retries: [], comments: [] };
  const p = new SseParser({
    onEvent: (e) => out.events.push({ event: e.event, id: e.id, data: e.data }),
    onRetry: (ms) => out.retries.push(ms),
    onComment: (c) => out.comments.push(c),
  });
  for (const c of chunks) p.feed(c);
  p.end();
  return out;
}

/** eventsource-parser on the same byte chunks, its `event: undefined` read as the spec's "message". */
async function theirs(chunks) {
  const out = { events: [], retries: [], comments: [] };
  let i = 0;
  const bytes = new ReadableStream({
    pull(c) {
      if (i < chunks.length) c.enqueue(chunks[i++]);
      else c.close();
    },
  });
  const events = bytes
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new esp.EventSourceParserStream({ onRetry: (ms) => out.retries.push(ms), onComment: (c) => out.comments.push(c) }));
  for await (const e of events) out.events.push({ event: e.event ?? "message", id: e.id, data: e.data });
  return out;
}

/** A golden stream framed with extra SSE features, all of which both parsers must read alike. */
function variants(provider, lines, rand) {
  const base = frameSSE(provider, lines);
  const withFields = lines
    .map((line, n) => {
      const name = eventName(provider, line);
      // data split over several lines at random points (joined with "\n" by both parsers)
      const cuts = [0, ...[1, 2].map(() => Math.floor(rand() * line.length)).sort((a, b) => a - b), line.length];
      const data = cuts.slice(1).map((end, k) => `data:${k % 2 ? " " : ""}${line.slice(cuts[k], end)}`);
      const extra = [
        n % 3 === 0 ? `id: ${n}` : null,
        n % 5 === 0 ? "retry: 2500" : null,
        n % 4 === 0 ? ": progress" : null,
        n % 7 === 0 ? "x-unknown: field" : null,
        n % 6 === 0 ? "retry: soon" : null,
      ].filter((x) => x !== null);
      return [...extra, ...(name === undefined ? [] : [`event:${name}`]), ...data, ""].join("\n") + "\n";
    })
    .join("");
  return [
    ["as sent", base],
    ["CRLF", base.replace(/\r?\n/g, "\r\n")],
    ["bare CR", `${base.replace(/\r?\n/g, "\r")}\n`],
    ["BOM first", `\uFEFF${base}`],
    ["ids, retry, comments, unknown fields, multi-line data", withFields],
    ["the same with CRLF", withFields.replace(/\n/g, "\r\n")],
  ];
}

describe(`SseParser gives the same events as eventsource-parser ${espVersion}`, () => {
  test("every golden stream of all eight providers, in six framings, cut at random byte offsets", async () => {
    assert.equal(new Set(streams.map((f) => f.stream.provider)).size, 8);
    const rand = rng(20260801);
    let compared = 0;
    for (const fixture of streams) {
      for (const [how, text] of variants(fixture.stream.provider, eventLines(fixture), rand)) {
        const bytes = encoder.encode(text);
        for (let round = 0; round < 4; round++) {
          const chunks = round === 0 ? [bytes] : randomSplit(bytes, rand, round < 3 ? 8 : 256);
          const a = ours(chunks);
          const b = await theirs(chunks);
          assert.deepEqual(a, b, `${fixture.name}, ${how}, round ${round}`);
          assert.ok(a.events.length >= eventLines(fixture).length, `${fixture.name}, ${how}: every event came`);
          compared++;
        }
      }
    }
    assert.ok(compared >= streams.length * 24);
  });

  test("the WHATWG edge cases (except a final bare CR, see above), cut at every offset", async () => {
    for (const c of SSE_CASES.filter((c) => !c.input.endsWith("\r"))) {
      const bytes = encoder.encode(c.input);
      for (let i = 0; i <= bytes.length; i++) {
        const chunks = [bytes.subarray(0, i), bytes.subarray(i)];
        assert.deepEqual(ours(chunks), await theirs(chunks), `${c.name}, cut at ${i}`);
      }
    }
  });

  test("throughput on a long stream (reported, not asserted)", async (t) => {
    const lines = streams.flatMap((f) => eventLines(f));
    let text = "";
    while (text.length < 8_000_000) text += frameSSE("anthropic", lines);
    const chunks = randomSplit(encoder.encode(text), rng(1), 4096);
    const mb = text.length / 1e6;
    const time = async (f) => {
      const t0 = performance.now();
      const r = await f(chunks);
      return [performance.now() - t0, r.events.length];
    };
    const [a, na] = await time(async (c) => ours(c));
    const [b, nb] = await time(theirs);
    const [c, nc] = await time(async (chunks) => {
      const events = [];
      const decoder = new TextDecoder();
      const p = espCore.createParser({ onEvent: (e) => events.push(e) });
      for (const chunk of chunks) p.feed(decoder.decode(chunk, { stream: true }));
      return { events };
    });
    assert.equal(na, nb);
    assert.equal(na, nc);
    const rate = (ms) => `${(mb / (ms / 1000)).toFixed(0)} MB/s`;
    t.diagnostic(
      `${mb.toFixed(1)} MB in ${chunks.length} chunks: SseParser ${rate(a)}; eventsource-parser: createParser + TextDecoder ${rate(c)}, ` +
        `TextDecoderStream + EventSourceParserStream ${rate(b)}`,
    );
  });
});
