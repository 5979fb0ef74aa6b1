// Next.js: app/api/chat-edge/route.js (the edge runtime, deprecated in Next 16: prefer the above)
import { renderBody } from "turnwire";

export const runtime = "edge";

export async function POST(request) {
  const body = renderBody(await request.text(), { provider: "anthropic", model: "claude-sonnet-4-5" });
  return new Response(body, { headers: { "content-type": "application/json" } });
}
