// `pnpm skein <command>`: `generate` builds a large history (apps/api/bench/generate); every
// other command belongs to the replay tool.
const [command, ...rest] = process.argv.slice(2);
if (command === "generate") {
  const { generateCommand } = await import("../apps/api/bench/generate/generate-cli.ts");
  process.exitCode = await generateCommand(rest);
} else {
  await import("../tooling/replay/src/cli.ts");
}
