// turnwire needs no Next configuration: the Node runtime loads the package's `node` entry and the
// edge runtime its `edge-light` entry (a `?module` wasm import Next compiles for the edge).
// The root is pinned so that Next does not look for a lockfile above the app.
export default {
  turbopack: { root: import.meta.dirname },
};
