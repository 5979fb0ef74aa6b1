// A route handler on the Node.js runtime (Next's default, and the one to choose first).
import { runSuite } from "../../../lib/run-suite.mjs";

export const runtime = "nodejs";

export async function POST(request) {
  return runSuite(request, "next-node");
}
