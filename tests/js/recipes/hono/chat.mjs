// Hono: chat.mjs (Node: serve({ fetch: app.fetch }) from @hono/node-server; Workers, Deno, Bun: export default app)
import { Hono } from "hono";
import { renderBody } from "turnwire";

export const app = new Hono();

app.post("/chat", async (c) => {
  const body = renderBody(await c.req.text(), { provider: "gemini", model: "gemini-2.5-pro" });
  return c.body(body, 200, { "content-type": "application/json" });
});
