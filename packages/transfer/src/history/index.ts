export { answerHistory, HISTORY_ANSWER_TOKENS, type HistoryCoverage } from "./answer-history.ts";
export {
  HISTORY_TOOL,
  HISTORY_TOOL_NAME,
  type HistoryCall,
  HistoryCallError,
  parseHistoryCall,
} from "./history-call.ts";
