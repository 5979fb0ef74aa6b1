// A CommonJS TypeScript consumer: `require` resolves the `require` types (dist/index.d.cts).
import turnwire = require("turnwire");

const bytes: Uint8Array = turnwire.renderBody([], { provider: "openai-chat", model: "gpt-5.2" });
const out: turnwire.Rendered = turnwire.renderForProvider("[]", { provider: "mistral", model: "mistral-large-latest" });
const turn = (): turnwire.TurnStream => turnwire.streamTurn({ provider: "kimi", model: "kimi-k2-thinking", transcript: "[]" });
const failover = (e: unknown): boolean => turnwire.isProviderError(e) && e.retryable;
export = { bytes, out, turn, failover };
