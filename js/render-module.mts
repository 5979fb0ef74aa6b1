// What the render entries (`turnwire/render`) share: the render module handed to the fetch
// shims, the stream module loaded on the first streamed turn, and one memory budget for both
// (internal module).
import { extendConversation } from "./conversation-ext.mjs";
import { setRenderCore } from "./core.mjs";
import { guardHandles } from "./handle-guard.mjs";
import type * as RenderGlue from "./turnwire_render.js";
import type * as StreamGlue from "./turnwire_stream.js";

/** Loads and instantiates the stream module (the entry knows how, for its host). */
export type LoadStream = () => Promise<typeof StreamGlue>;

/**
 * Hands the render module to `streamTurn` and returns this entry's `setMemoryBudget`, which
 * sets the budget of the render module and of the stream module (now or when it loads).
 */
export function useRenderModule(glue: typeof RenderGlue, load: LoadStream): (bytes: number | null) => void {
  let stream: Promise<typeof StreamGlue> | undefined;
  let loaded: typeof StreamGlue | undefined;
  let budget: { bytes: number | null } | undefined;
  const streamModule = (): Promise<typeof StreamGlue> =>
    (stream ??= load().then(
      (s) => {
        if (budget !== undefined) s.setMemoryBudget(budget.bytes);
        guardHandles(s.StreamDecoder, "StreamDecoder");
        loaded = s;
        return s;
      },
      (e: unknown) => {
        stream = undefined; // a failed load (offline) is tried again on the next turn
        throw new Error(`turnwire/render: the stream module could not be loaded: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
      },
    ));
  extendConversation(glue.Conversation);
  setRenderCore({
    Conversation: glue.Conversation,
    contextWindow: glue.contextWindow,
    isTurnwireError: glue.isTurnwireError,
    renderRequest: glue.renderRequest,
    streamDecoder: async () => (await streamModule()).StreamDecoder,
  });
  return (bytes) => {
    glue.setMemoryBudget(bytes); // throws on a bad value before anything changes
    budget = { bytes };
    loaded?.setMemoryBudget(bytes);
  };
}
