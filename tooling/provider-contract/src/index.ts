export type {
  ContractReply,
  ConversationMessage,
  ProviderContractHarness,
  ProviderContractHarnessFactory,
} from "./harness.ts";
export { describeProviderContract } from "./describe-provider-contract.ts";
