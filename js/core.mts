// The wasm API the fetch shims call (StreamDecoder, renderForProvider). Each runtime entry loads
// its own wasm-bindgen glue (web, nodejs or module) and hands it over here before exporting
// anything, so the shims run on whichever instance the entry initialised (internal module).
import type { StreamDecoder, StreamRelay, isTurnwireError, relayErrorBody, relayWhole, renderForProvider, renderRequest, repairModelMessages, repairRequestBody } from "./turnwire.js";

export interface Core {
  StreamDecoder: typeof StreamDecoder;
  isTurnwireError: typeof isTurnwireError;
  renderForProvider: typeof renderForProvider;
  renderRequest: typeof renderRequest;
  repairModelMessages: typeof repairModelMessages;
  repairRequestBody: typeof repairRequestBody;
  StreamRelay: typeof StreamRelay;
  relayWhole: typeof relayWhole;
  relayErrorBody: typeof relayErrorBody;
}

let core: Core | undefined;

/** Called once by the entry that loaded the wasm. */
export function setCore(c: Core): void {
  core = c;
}

export function getCore(): Core {
  if (core === undefined) throw new Error("turnwire: the wasm module is not loaded; import the package through one of its entries");
  return core;
}
