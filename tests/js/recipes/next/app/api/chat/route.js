// Next.js: app/api/chat/route.js (the Node.js runtime: no configuration needed)
import { renderBody } from "turnwire";

export async function POST(request) {
  const body = renderBody(await request.text(), { provider: "anthropic", model: "claude-sonnet-4-5" });
  return new Response(body, { headers: { "content-type": "application/json" } });
}
