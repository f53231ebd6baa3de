import type http from "node:http";
import { authenticate } from "../auth.ts";
import {
  AttachmentRejectedError,
  type AttachmentStore,
  MAX_ATTACHMENT_BYTES,
} from "../attachments/attachment-store.ts";

export const ATTACHMENTS_PATH = "/attachments";

const STATUS: Record<AttachmentRejectedError["reason"], number> = {
  too_large: 413,
  unsupported_type: 415,
  not_found: 404,
};

function reply(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

function refuse(res: http.ServerResponse, status: number, code: string, message: string): void {
  reply(res, status, { error: { code, message } });
}

/** The body, or null once it passes `limit` bytes (the rest is not read into memory). */
async function readLimited(req: http.IncomingMessage, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * E16 upload: `POST /attachments?name=<file name>` with the raw bytes as the body. The bytes are
 * stored content-addressed and their type sniffed; the answer is what `thread.sendMessage`
 * takes as an attachment: `{ ref, name, mimeType, sizeBytes }`.
 */
export async function serveAttachmentUpload(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  options: { store: AttachmentStore; apiToken: string | null },
): Promise<void> {
  if (req.method !== "POST") {
    res.setHeader("allow", "POST");
    refuse(res, 405, "METHOD_NOT_SUPPORTED", "upload attachments with POST");
    return;
  }
  const auth = authenticate(options.apiToken, req.headers, null, false);
  if (!auth.authenticated) {
    refuse(res, 401, "UNAUTHORIZED", "a valid API token is required");
    return;
  }
  const declared = Number(req.headers["content-length"] ?? Number.NaN);
  const tooLarge = `an attachment may hold at most ${MAX_ATTACHMENT_BYTES} bytes`;
  if (declared > MAX_ATTACHMENT_BYTES) {
    res.setHeader("connection", "close");
    refuse(res, 413, "PAYLOAD_TOO_LARGE", tooLarge);
    return;
  }
  const body = await readLimited(req, MAX_ATTACHMENT_BYTES);
  if (body === null) {
    res.setHeader("connection", "close");
    refuse(res, 413, "PAYLOAD_TOO_LARGE", tooLarge);
    return;
  }
  const url = new URL(req.url ?? "/", "http://localhost");
  const asked = url.searchParams.get("name") ?? "";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(asked)) {
    refuse(
      res,
      400,
      "BAD_REQUEST",
      "the file name may not contain control characters (NUL, line breaks, …)",
    );
    return;
  }
  const name = asked.trim().slice(0, 255) || "attachment";
  try {
    const stored = await options.store.put(body);
    reply(res, 201, {
      ref: stored.ref,
      name,
      mimeType: stored.mimeType,
      sizeBytes: stored.sizeBytes,
    });
  } catch (error) {
    if (!(error instanceof AttachmentRejectedError)) throw error;
    const code = error.reason === "too_large" ? "PAYLOAD_TOO_LARGE" : "UNSUPPORTED_MEDIA_TYPE";
    refuse(res, STATUS[error.reason], code, error.message);
  }
}
