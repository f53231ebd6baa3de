import { readApiToken } from "./api-token.ts";

/** What the API answers for an upload; `ref` and `name` go with the message (E16). */
export type UploadedAttachment = { ref: string; name: string; mimeType: string; sizeBytes: number };

/**
 * Sends a file's bytes to the API's upload endpoint. The server decides the type from the bytes
 * and refuses what no provider can take, so its message is shown as it is.
 */
export async function uploadAttachment(apiUrl: string, file: File): Promise<UploadedAttachment> {
  const token = readApiToken();
  const name = file.name || "pasted-image";
  const response = await fetch(`${apiUrl}/attachments?name=${encodeURIComponent(name)}`, {
    method: "POST",
    headers: {
      "content-type": "application/octet-stream",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: file,
  });
  const body = (await response.json().catch(() => null)) as
    | UploadedAttachment
    | { error?: { message?: string } }
    | null;
  if (!response.ok || !body || !("ref" in body)) {
    const message = body && "error" in body ? body.error?.message : undefined;
    throw new Error(message ?? `upload failed (HTTP ${response.status})`);
  }
  return body;
}

/** The files in a paste or drop. */
export function filesOf(data: DataTransfer | null): File[] {
  if (!data) return [];
  return [...data.files];
}
