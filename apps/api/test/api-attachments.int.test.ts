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

describe("POST /attachments: issue 35's malformed and concurrent uploads", () => {
  it("E16: a PNG cut short (its signature alone, or missing its end) is refused 415, not stored to be dropped later", async () => {
    for (const cut of [PNG.subarray(0, 8), PNG.subarray(0, PNG.length - 12)]) {
      const res = await upload(cut, { name: "cut.png" });
      expect(res.status).toBe(415);
    }
    expect((await upload(PNG, { name: "whole.png" })).status).toBe(201);
  });

  it("E16: a file name with a NUL or a line break is refused 400 in words", async () => {
    for (const name of ["a\u0000b.png", "a\nb.png", "a\rb.png"]) {
      const res = await upload(PNG, { name });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: { message: string } };
      expect(body.error.message).toMatch(/control characters/);
    }
  });

  it("E16: 20 parallel uploads of the same bytes all answer 201 with one ref", async () => {
    // Bytes no other test stored (another width): a fresh address, written by all 20 at once.
    const fresh = Buffer.from(PNG);
    fresh.writeUInt32BE(Date.now() % 2 ** 32, 16);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => upload(fresh, { name: "same.png" })),
    );
    expect(answers.map((res) => res.status)).toEqual(Array(20).fill(201));
    const refs = await Promise.all(
      answers.map(async (res) => ((await res.json()) as { ref: string }).ref),
    );
    expect(new Set(refs).size).toBe(1);
  });
});
