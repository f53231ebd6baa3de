import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_ATTACHMENT_BYTES } from "../src/attachments/attachment-store.ts";
import { createOrchestrator } from "../src/orchestrator/index.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({
    token: "secret-token",
    orchestrator: (store, dataDir) => createOrchestrator({ store, adapters: {}, dataDir }),
  });
});
afterAll(async () => {
  await t.close();
});

const upload = (body: Uint8Array, init: { name?: string; type?: string; token?: string } = {}) =>
  fetch(`${t.server.url}/attachments?name=${encodeURIComponent(init.name ?? "file")}`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${init.token ?? "secret-token"}`,
      "content-type": init.type ?? "application/octet-stream",
    },
    body,
  });

describe("POST /attachments (E16)", () => {
  it("E16: stores the bytes content-addressed under the data dir; the type comes from the bytes, not the client", async () => {
    const first = await upload(PNG, { name: "claims-a.pdf", type: "application/pdf" });
    expect(first.status).toBe(201);
    const body = (await first.json()) as { ref: string; mimeType: string; sizeBytes: number };
    expect(body).toMatchObject({
      name: "claims-a.pdf",
      mimeType: "image/png",
      sizeBytes: PNG.length,
    });
    expect(body.ref).toMatch(/^sha256:[0-9a-f]{64}$/);
    const stored = join(t.dataDir, "attachments", body.ref.slice("sha256:".length));
    expect(readFileSync(stored).equals(PNG)).toBe(true);
    const again = (await (await upload(PNG, { name: "other.png" })).json()) as { ref: string };
    expect(again.ref).toBe(body.ref);
  });

  it("E16: refuses bytes of no attachable type (415), too many bytes (413) and a missing token (401)", async () => {
    const text = await upload(Buffer.from("#!/bin/sh\necho hi\n"), { type: "image/png" });
    expect(text.status).toBe(415);
    const big = Buffer.concat([PNG, Buffer.alloc(MAX_ATTACHMENT_BYTES)]);
    expect((await upload(big)).status).toBe(413);
    expect((await upload(PNG, { token: "wrong" })).status).toBe(401);
  });

  it("E16: sendMessage refuses a ref nobody uploaded, and a malformed ref", async () => {
    const project = await t.client.project.create.mutate({
      name: "p",
      workspaceRoot: t.workspaceDir,
    });
    const { threadId } = await t.client.thread.create.mutate({
      projectId: project.projectId,
      provider: "codex",
    });
    const missing = `sha256:${"0".repeat(64)}`;
    await expect(
      t.client.thread.sendMessage.mutate({
        threadId,
        text: "see",
        attachments: [{ ref: missing, name: "x.png" }],
      }),
    ).rejects.toMatchObject({ data: { code: "NOT_FOUND" } });
    await expect(
      t.client.thread.sendMessage.mutate({
        threadId,
        text: "see",
        attachments: [{ ref: "../../etc/passwd", name: "x.png" }],
      }),
    ).rejects.toMatchObject({ data: { code: "BAD_REQUEST" } });
  });
});
