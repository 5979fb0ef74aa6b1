// CommonJS entry (`require("turnwire")` in Node): the wasm-bindgen nodejs glue (node-glue.cjs,
// which reads the wasm beside it synchronously), plus the JS half of the API compiled to
// CommonJS, so that Node versions without require(esm) get the same API.
import glue = require("./node-glue.cjs");
import api = require("./api.cjs");
import core = require("./core.cjs");

core.setCore(glue);

export = { ...glue, ...api };
