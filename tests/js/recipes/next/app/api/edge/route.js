// The same route handler on the edge runtime (deprecated in Next 16, still supported): turnwire
// resolves to its `edge-light` entry here.
import { runSuite } from "../../../lib/run-suite.mjs";

export const runtime = "edge";

export async function POST(request) {
  return runSuite(request, "next-edge");
}
