// assert.mjs for code run in @edge-runtime/vm (the strict edge check, and Next.js's local edge
// sandbox, which uses it): its TextEncoder is Node's, so the Uint8Arrays it makes come from Node's
// realm while turnwire's come from the VM's. deepEqual compares two such arrays of different
// realms by tag and content; everything else, and arrays of one realm, exactly as assert.mjs.
import assert from "./assert.mjs";

const isBytes = (x) => Object.prototype.toString.call(x) === "[object Uint8Array]";

export default {
  ...assert,
  deepEqual(actual, expected, message) {
    if (isBytes(actual) && isBytes(expected) && Object.getPrototypeOf(actual) !== Object.getPrototypeOf(expected)) {
      return assert.deepEqual(Array.from(actual), Array.from(expected), message);
    }
    return assert.deepEqual(actual, expected, message);
  },
};
