import { describe, expect, it } from "vitest";
import { packBody, unpackBody } from "./fold-packing.ts";

const text = `{"compact":false,"state":"{}","rows":[]}\n${'{"id":"itm_1","text":"hello"}'.repeat(200)}`;

describe("B8 fold checkpoint packing (issue 34)", () => {
  it("B8: a checkpoint's text is stored deflated, in a fraction of its size, and read back whole", async () => {
    const body = await packBody(text);
    expect(body.length).toBeLessThan(text.length / 10);
    expect(await unpackBody(body)).toBe(text);
  });

  it("B8: a damaged body is not read (the caller folds from the log instead)", async () => {
    const body = await packBody(text);
    for (const damaged of ["", "{}", body.slice(0, -8), `${body}x`, `A${body.slice(1)}`]) {
      expect(await unpackBody(damaged)).not.toBe(text);
    }
    for (const damaged of ["", "{}", body.slice(0, -8), `${body}x`]) {
      expect(await unpackBody(damaged)).toBeNull();
    }
  });
});
