import { type Attachment, NotFoundError, type ProviderKind } from "@skein/domain";
import { CapabilityUnsupportedError, type ProviderAdapter } from "@skein/domain/provider";
import { AttachmentRejectedError, type AttachmentStore } from "./attachment-store.ts";

/** What a client names when it sends a message with uploads (the upload answered the ref). */
export type AttachmentRef = { ref: string; name: string };

/**
 * E16: the message's attachments as the log records them, by reference to the stored bytes and
 * with the type sniffed from those bytes. A ref nobody uploaded is `not_found`; a type the
 * provider cannot take is refused with CapabilityUnsupportedError, before anything is recorded.
 */
export async function resolveAttachments(
  store: AttachmentStore,
  provider: ProviderKind,
  adapter: ProviderAdapter | undefined,
  refs: readonly AttachmentRef[],
): Promise<Attachment[]> {
  const resolved: Attachment[] = [];
  for (const { ref, name } of refs) {
    const stored = await store.get(ref).catch((error: unknown) => {
      if (error instanceof AttachmentRejectedError) throw new NotFoundError("attachment", ref);
      throw error;
    });
    if (!adapter?.attachmentTypes?.includes(stored.mimeType)) {
      throw new CapabilityUnsupportedError(
        provider,
        "attachments",
        "thread.sendMessage",
        `${provider} cannot take ${stored.mimeType} (${name}) in a message`,
      );
    }
    resolved.push({
      name,
      mimeType: stored.mimeType,
      ref: stored.ref,
      sizeBytes: stored.sizeBytes,
    });
  }
  return resolved;
}
