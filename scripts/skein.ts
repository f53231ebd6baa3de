// `pnpm skein <command>`: `generate` builds a large history (apps/api/bench/generate); `mcp` and
// `acp` serve Skein to outside agents and editors on stdio; every other command belongs to the
// replay tool.
const [command, ...rest] = process.argv.slice(2);
if (command === "mcp") {
  const { mcpCommand } = await import("../apps/api/src/cli/mcp-command.ts");
  process.exitCode = await mcpCommand(rest);
} else if (command === "acp") {
  const { acpCommand } = await import("../apps/api/src/cli/acp-command.ts");
  // The editor closed the connection: open streams to Skein must not keep the process alive.
  process.exit(await acpCommand(rest));
} else if (command === "generate") {
  const { generateCommand } = await import("../apps/api/bench/generate/generate-cli.ts");
  process.exitCode = await generateCommand(rest);
} else {
  await import("../tooling/replay/src/cli.ts");
}
