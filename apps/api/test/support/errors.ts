import { TRPCClientError } from "@trpc/client";
import type { AppRouter } from "@skein/contract";

export type Refusal = {
  code: string;
  httpStatus: number;
  message: string;
  issues: { path: string; message: string }[] | null;
  domainCode: string | null;
};

/** Awaits a call that must fail and returns how it was refused. */
export async function refusal(call: Promise<unknown>): Promise<Refusal> {
  try {
    await call;
  } catch (error) {
    if (!(error instanceof TRPCClientError)) throw error;
    const typed = error as TRPCClientError<AppRouter>;
    return {
      code: typed.data?.code ?? "(none)",
      httpStatus: typed.data?.httpStatus ?? 0,
      message: typed.message,
      issues: typed.data?.issues ?? null,
      domainCode: typed.data?.domainCode ?? null,
    };
  }
  throw new Error("expected the call to be refused");
}
