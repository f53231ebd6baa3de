/**
 * E16: an attachment's type comes from its bytes, never from what the client claims. Only the
 * kinds a provider can take in a message are recognised; anything else is refused on upload.
 */
export type AttachmentMimeType =
  | "image/png"
  | "image/jpeg"
  | "image/gif"
  | "image/webp"
  | "application/pdf";

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0) =>
  bytes.length >= offset + signature.length &&
  signature.every((byte, i) => bytes[offset + i] === byte);

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

export function sniffAttachmentType(bytes: Uint8Array): AttachmentMimeType | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) {
    return isWholePng(bytes) ? "image/png" : null;
  }
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) return "image/gif";
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "image/webp";
  if (startsWith(bytes, ascii("%PDF-"))) return "application/pdf";
  return null;
}

/**
 * Issue 35: a PNG cut short (the signature alone, a partial upload) is no image: a provider drops
 * it silently while the run "completes". Whole means its header chunk first and its end chunk
 * last, the structure every PNG has.
 */
function isWholePng(bytes: Uint8Array): boolean {
  const MIN = 8 + 25 + 12; // signature, IHDR chunk, IEND chunk
  return (
    bytes.length >= MIN &&
    startsWith(bytes, ascii("IHDR"), 12) &&
    startsWith(bytes, ascii("IEND"), bytes.length - 8)
  );
}

export function isImageType(mimeType: string): boolean {
  return mimeType.startsWith("image/");
}
