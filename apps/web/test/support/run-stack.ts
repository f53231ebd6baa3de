// Manual use: `npx tsx test/support/run-stack.ts` starts fake models, the API and the built UI,
// prints the URLs and keeps running until Ctrl-C (handy to look at the UI by hand).
import { responsesSlowTextReply } from "../../../../tooling/fake-models/src/index.ts";
import { startStack } from "./stack.ts";

const stack = await startStack(process.argv.includes("--dev") ? "dev" : "start");
stack.providers.openai.enqueue(
  responsesSlowTextReply(["Hello ", "from ", "the ", "fake ", "**Codex** ", "model."], 200),
);
process.stdout.write(
  `WEB ${stack.web.url}\nAPI ${stack.api.url}\nWORKSPACE ${stack.providers.workspace}\n`,
);
const stop = () => {
  void stack.close().then(() => process.exit(0));
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
