export { type NativeThread, type NativeTurn, NativeStore } from "./native-store.ts";
export {
  echoReply,
  type ReplyFn,
  type ScriptContext,
  type ScriptStep,
  writeFile,
} from "./script.ts";
export {
  createScriptedProvider,
  FULL_CAPABILITIES,
  type ScriptedCall,
  type ScriptedProvider,
} from "./scripted-provider.ts";
export { ScriptedSession } from "./scripted-session.ts";
