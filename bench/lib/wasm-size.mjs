// Where the .wasm's bytes go: code size per crate (or turnwire module), read from the
// wasm-bindgen output before wasm-opt (target/turnwire-pkg/web/turnwire_bg.wasm), which still
// has its `name` section. wasm-opt -Oz shrinks everything, so the shares are what count.

function leb(buf, pos) {
  let result = 0;
  let shift = 0;
  let b;
  do {
    b = buf[pos++];
    result += (b & 0x7f) * 2 ** shift;
    shift += 7;
  } while (b & 0x80);
  return [result, pos];
}

/** Demangles enough of a Rust legacy (`_ZN…E`) or v0-less symbol to find its path. */
function pathOf(name) {
  if (name.startsWith("_ZN")) {
    const parts = [];
    let i = 3;
    while (i < name.length && name[i] !== "E") {
      let n = 0;
      while (i < name.length && name[i] >= "0" && name[i] <= "9") n = n * 10 + Number(name[i++]);
      if (!n) break;
      parts.push(name.slice(i, i + n));
      i += n;
    }
    return parts.join("::");
  }
  return name;
}

function bucket(name) {
  const p = pathOf(name).replace(/^_<|^<|\$LT\$|\$u20\$|\$GT\$|\$u7b\$|\$u7d\$/g, " ").trim();
  const m = p.match(/[A-Za-z_][A-Za-z0-9_]*(::[A-Za-z_][A-Za-z0-9_]*)?/);
  if (!m) return "(other)";
  const [crate, module] = m[0].split("::");
  if (crate === "turnwire") return `turnwire::${module ?? ""}`;
  if (/^(core|alloc|std|dlmalloc|compiler_builtins|hashbrown)$/.test(crate)) {
    if (p.includes("turnwire")) return "core/alloc generics over turnwire types (drop, clone, Vec, sort…)";
    if (p.includes("serde")) return "serde_json";
    if (/fmt/.test(p)) return "core::fmt (formatting)";
    return "std/core (iterator chains, sort, float formatting, dlmalloc, …)";
  }
  if (/^(serde|serde_core|serde_json|indexmap)$/.test(crate)) return "serde_json";
  if (/^(wasm_bindgen|js_sys|serde_wasm_bindgen|tsify)$/.test(crate)) return "wasm-bindgen, js-sys, serde-wasm-bindgen";
  if (name.startsWith("__wbg") || name.startsWith("__wbindgen")) return "wasm-bindgen, js-sys, serde-wasm-bindgen";
  if (/^(renderBody|renderForProvider|normalize|validateRequest|projectToolIds?|isValidToolId|conversation_|wasmMemoryBytes|isTurnwireError)/.test(crate)) return "turnwire::wasm";
  return "other (generic impls on primitives, runtime)";
}

/** Returns [{ bucket, bytes }] sorted by size, plus the code, data and total bytes. */
export function codeSizeByCrate(buf, collect) {
  let pos = 8;
  const sections = [];
  while (pos < buf.length) {
    const id = buf[pos++];
    let size;
    [size, pos] = leb(buf, pos);
    sections.push({ id, start: pos, size });
    pos += size;
  }
  let imported = 0;
  const imp = sections.find((s) => s.id === 2);
  if (imp) {
    let p = imp.start;
    let n;
    [n, p] = leb(buf, p);
    for (let i = 0; i < n; i++) {
      let len;
      [len, p] = leb(buf, p);
      p += len;
      [len, p] = leb(buf, p);
      p += len;
      const kind = buf[p++];
      if (kind === 0) {
        imported++;
        [, p] = leb(buf, p);
      } else if (kind === 1) {
        p++;
        const flags = buf[p++];
        [, p] = leb(buf, p);
        if (flags & 1) [, p] = leb(buf, p);
      } else if (kind === 2) {
        const flags = buf[p++];
        [, p] = leb(buf, p);
        if (flags & 1) [, p] = leb(buf, p);
      } else if (kind === 3) p += 2;
      else if (kind === 4) p += 2;
    }
  }
  const names = new Map();
  for (const s of sections.filter((x) => x.id === 0)) {
    let p = s.start;
    let len;
    [len, p] = leb(buf, p);
    const sname = buf.subarray(p, p + len).toString("utf8");
    p += len;
    if (sname !== "name") continue;
    const end = s.start + s.size;
    while (p < end) {
      const sub = buf[p++];
      let ssize;
      [ssize, p] = leb(buf, p);
      if (sub === 1) {
        let q = p;
        let n;
        [n, q] = leb(buf, q);
        for (let i = 0; i < n; i++) {
          let idx;
          [idx, q] = leb(buf, q);
          let l;
          [l, q] = leb(buf, q);
          names.set(idx, buf.subarray(q, q + l).toString("utf8"));
          q += l;
        }
      }
      p += ssize;
    }
  }
  const code = sections.find((s) => s.id === 10);
  const data = sections.find((s) => s.id === 11);
  const by = new Map();
  if (code) {
    let p = code.start;
    let n;
    [n, p] = leb(buf, p);
    for (let i = 0; i < n; i++) {
      let size;
      const at = p;
      [size, p] = leb(buf, p);
      const total = size + (p - at);
      const fname = names.get(imported + i) ?? "(unnamed)";
      const b = bucket(fname);
      collect?.push({ name: fname, bucket: b, bytes: total });
      by.set(b, (by.get(b) ?? 0) + total);
      p += size;
    }
  }
  return {
    buckets: [...by].map(([bucket, bytes]) => ({ bucket, bytes })).sort((a, b) => b.bytes - a.bytes),
    code: code?.size ?? 0,
    data: data?.size ?? 0,
    total: buf.length,
    named: names.size > 0,
  };
}

