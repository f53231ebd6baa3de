// The git host's own process (see git-host.ts): starts each git command it is sent and answers
// with its exit code and output. Plain JavaScript, so it runs on bare `node` with no loader.
import { spawn } from "node:child_process";

// The server is gone (exited or killed): nothing is left to answer.
process.on("disconnect", () => process.exit(0));

process.on("message", (request) => {
  const { id, args, cwd, env, input } = request;
  let answered = false;
  const answer = (reply) => {
    if (answered) return;
    answered = true;
    process.send?.({ id, ...reply });
  };
  let child;
  try {
    // The command's own variables over the environment this helper was started with.
    const merged = env && Object.keys(env).length > 0 ? { ...process.env, ...env } : process.env;
    child = spawn("git", args, { cwd, env: merged, stdio: ["pipe", "pipe", "pipe"] });
  } catch (error) {
    answer({ error: { message: String(error?.message ?? error), code: error?.code ?? null } });
    return;
  }
  const out = [];
  const err = [];
  child.stdout.on("data", (chunk) => out.push(chunk));
  child.stderr.on("data", (chunk) => err.push(chunk));
  child.on("error", (error) =>
    answer({ error: { message: error.message, code: error.code ?? null } }),
  );
  child.on("close", (code) =>
    answer({ code, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString("utf8") }),
  );
  // git may exit before reading its input; the exit code reports the real problem.
  child.stdin.on("error", () => undefined);
  child.stdin.end(input ?? "");
});
