// The wasm API the fetch shims call (StreamDecoder, renderRequest). Each runtime entry loads
// its own wasm-bindgen glue (web, nodejs or module) and hands it over here before exporting
// anything, so the shims run on whichever instance the entry initialised (internal module).
//
// The main entries hand over the whole module. The render entries (`turnwire/render`) hand over
// the render module, which has no stream decoders: their `streamTurn` asks `streamDecoder()`,
// which loads the stream module the first time a turn streams. Both can be loaded in one
// process (the mock providers load the main one); each entry's `streamTurn` uses its own.
import { extendConversation } from "./conversation-ext.mjs";
import { guardHandles } from "./handle-guard.mjs";
import type { Conversation, contextWindow, StreamDecoder, StreamRelay, isTurnwireError, relayErrorBody, relayWhole, renderRequest, repairModelMessages, repairRequestBody } from "./turnwire.js";

/** What `streamTurn` needs: the render module's functions and a way to the stream decoders. */
export interface RenderCore {
  Conversation: typeof Conversation;
  contextWindow: typeof contextWindow;
  isTurnwireError: typeof isTurnwireError;
  renderRequest: typeof renderRequest;
  /** The `StreamDecoder` class: at hand in the main module, loaded on first use by the render entries. */
  streamDecoder(): typeof StreamDecoder | Promise<typeof StreamDecoder>;
}

/** The main module: everything, including what only the main entries export. */
export interface Core extends RenderCore {
  repairModelMessages: typeof repairModelMessages;
  repairRequestBody: typeof repairRequestBody;
  StreamRelay: typeof StreamRelay;
  relayWhole: typeof relayWhole;
  relayErrorBody: typeof relayErrorBody;
}

/** The wasm-bindgen glue of the main module, as the entries import it. */
export type MainGlue = Omit<Core, "streamDecoder"> & { StreamDecoder: typeof StreamDecoder };

let render: RenderCore | undefined;
let main: Core | undefined;

/** Called once by a main entry, with the glue of the module it loaded. */
export function setCore(glue: MainGlue): void {
  extendConversation(glue.Conversation);
  guardHandles(glue.StreamDecoder, "StreamDecoder");
  guardHandles(glue.StreamRelay, "StreamRelay");
  main = { ...glue, streamDecoder: () => glue.StreamDecoder };
}

/** Called once by a render entry (`turnwire/render`). */
export function setRenderCore(c: RenderCore): void {
  render = c;
}

/** The module that is loaded (the main one when both are), for what either has. */
export function getAnyCore(): RenderCore {
  const core = main ?? render;
  if (core === undefined) throw new Error("turnwire: the wasm module is not loaded; import the package through one of its entries");
  return core;
}

/** The render module and its stream decoders (`turnwire/render` loaded them). */
export function getRenderCore(): RenderCore {
  if (render === undefined) throw new Error("turnwire: the render module is not loaded; import turnwire/render");
  return render;
}

/** The main module: the main entries (`turnwire`) loaded it. */
export function getCore(): Core {
  if (main === undefined) throw new Error("turnwire: the wasm module is not loaded; import the package through one of its entries");
  return main;
}
