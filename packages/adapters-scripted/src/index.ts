/** The scripted agent as a Skein provider: issue 27's proof that a provider is one package. */
export {
  createScriptedAdapter,
  SCRIPTED_CAPABILITIES,
  type ScriptedAdapterOptions,
} from "./scripted-adapter.ts";
