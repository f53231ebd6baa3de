import { createHash, randomUUID } from "node:crypto";
import { mkdir, open, readFile, rename, stat } from "node:fs/promises";
import path from "node:path";
import { type AttachmentMimeType, sniffAttachmentType } from "./sniff-type.ts";

/** One upload's bytes (E16); larger ones are refused before they are stored. */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;

/** What the store knows of stored bytes: where they are and what they are. */
export type StoredAttachment = {
  /** `sha256:<hex>`: the same bytes always get the same ref. */
  ref: string;
  mimeType: AttachmentMimeType;
  sizeBytes: number;
  /** Absolute path of the bytes, for providers that read local files. */
  path: string;
};

export class AttachmentRejectedError extends Error {
  constructor(
    readonly reason: "too_large" | "unsupported_type" | "not_found",
    message: string,
  ) {
    super(message);
    this.name = "AttachmentRejectedError";
  }
}

const REF = /^sha256:([0-9a-f]{64})$/;

/**
 * Content-addressed attachment bytes under `<dataDir>/attachments`: a file named by its SHA-256,
 * written once (to a temp name, then renamed) and never changed, so a ref stays valid for as long
 * as the data dir does and two uploads of the same bytes share one file.
 */
export class AttachmentStore {
  constructor(readonly dir: string) {}

  static inDataDir(dataDir: string): AttachmentStore {
    return new AttachmentStore(path.join(dataDir, "attachments"));
  }

  async put(bytes: Uint8Array): Promise<StoredAttachment> {
    if (bytes.length > MAX_ATTACHMENT_BYTES) {
      throw new AttachmentRejectedError(
        "too_large",
        `an attachment may hold at most ${MAX_ATTACHMENT_BYTES} bytes`,
      );
    }
    const mimeType = sniffAttachmentType(bytes);
    if (mimeType === null) {
      throw new AttachmentRejectedError(
        "unsupported_type",
        "only PNG, JPEG, GIF and WebP images and PDF documents can be attached",
      );
    }
    const hex = createHash("sha256").update(bytes).digest("hex");
    const file = path.join(this.dir, hex);
    await mkdir(this.dir, { recursive: true });
    if (!(await exists(file))) {
      // Unique per write: parallel uploads of the same bytes each write their own temp file
      // (the rename makes one of the identical copies the stored one).
      const temp = `${file}.${process.pid}.${randomUUID()}.tmp`;
      const handle = await open(temp, "wx");
      try {
        await handle.writeFile(bytes);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, file);
    }
    return { ref: `sha256:${hex}`, mimeType, sizeBytes: bytes.length, path: file };
  }

  /** The stored bytes behind a ref; their type is sniffed again, not remembered from upload. */
  async get(ref: string): Promise<StoredAttachment> {
    const hex = REF.exec(ref)?.[1];
    const file = hex ? path.join(this.dir, hex) : null;
    const bytes = file ? await readFile(file).catch(() => null) : null;
    const mimeType = bytes ? sniffAttachmentType(bytes) : null;
    if (!file || !bytes || !mimeType) {
      throw new AttachmentRejectedError("not_found", `no uploaded attachment ${ref}`);
    }
    return { ref, mimeType, sizeBytes: bytes.length, path: file };
  }
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}
