import type http from "node:http";
import { authenticate } from "../auth.ts";
import type { SkeinMetrics } from "./skein-metrics.ts";

/**
 * `GET /metrics` in Prometheus text format. With an API token configured the scraper presents
 * it as a bearer token, like every other caller (Prometheus: `authorization.credentials`).
 */
export async function serveMetrics(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  metrics: SkeinMetrics,
  apiToken: string | null,
): Promise<void> {
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain" });
    res.end("metrics are read with GET\n");
    return;
  }
  if (!authenticate(apiToken, req.headers, null, false).authenticated) {
    res.writeHead(401, { "content-type": "text/plain", "www-authenticate": "Bearer" });
    res.end("metrics need the API token as a bearer token\n");
    return;
  }
  const { contentType, body } = await metrics.render();
  res.writeHead(200, { "content-type": contentType, "cache-control": "no-store" });
  res.end(req.method === "HEAD" ? undefined : body);
}
