// Type-checked with tsconfig.nodisposable.json (lib: es2022 only): the package's declarations
// must compile without `esnext.disposable`, and `[Symbol.dispose]` stays typed.
import { Conversation, renderBody, type RenderOptions, type ToolChoice } from "turnwire";
import { Conversation as RenderConversation } from "turnwire/render";
import { fileStore } from "turnwire/file-store";

const toolChoice: ToolChoice = { name: "read_file" };
const options: RenderOptions = { provider: "anthropic", model: "claude-sonnet-4-5", toolChoice, stopSequences: ["END"] };
const history = [{ speaker: "human" as const, blocks: [{ type: "text" as const, text: "hi" }] }];
const body: Uint8Array = renderBody(history, options);
const conversation = new Conversation(history);
conversation[Symbol.dispose]();
const other = new RenderConversation(history);
other.free();
export { body, fileStore };
