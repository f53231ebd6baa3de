import type { RouterOutputs } from "@skein/contract";

export type ReviewDiff = RouterOutputs["review"]["diff"];
export type ReviewFile = ReviewDiff["files"][number];
