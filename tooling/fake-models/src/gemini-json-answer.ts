/**
 * Answers for Gemini CLI's auxiliary JSON calls (model routing, next-speaker checks, loop
 * detection): a value shaped like the requested schema, with the fields those callers read set
 * so the CLI stays on a plain path (a flash model, the user speaks next, no loop).
 */

const KNOWN_FIELDS: Record<string, unknown> = {
  next_speaker: "user",
  model_choice: "flash",
  complexity_score: 10,
  is_stuck: false,
  unproductive_state_confidence: 0,
};

const DEFAULT_ANSWER = {
  reasoning: "fake auxiliary answer",
  complexity_reasoning: "fake auxiliary answer",
  ...KNOWN_FIELDS,
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function valueFor(schema: unknown, name: string | null, depth: number): unknown {
  if (name !== null && name in KNOWN_FIELDS) return KNOWN_FIELDS[name];
  if (!isRecord(schema) || depth > 6) return null;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const type = String(schema.type ?? "").toLowerCase();
  if (type === "object" || isRecord(schema.properties)) {
    const properties = isRecord(schema.properties) ? schema.properties : {};
    return Object.fromEntries(
      Object.entries(properties).map(([key, sub]) => [key, valueFor(sub, key, depth + 1)]),
    );
  }
  if (type === "array") return [];
  if (type === "integer" || type === "number")
    return typeof schema.minimum === "number" ? schema.minimum : 1;
  if (type === "boolean") return false;
  return "fake";
}

/** The JSON text to answer a request whose body asks for `application/json`. */
export function geminiJsonAnswer(body: unknown): string {
  const config = isRecord(body) ? body.generationConfig : undefined;
  const schema = isRecord(config)
    ? (config.responseJsonSchema ?? config.responseSchema)
    : undefined;
  return JSON.stringify(schema === undefined ? DEFAULT_ANSWER : valueFor(schema, null, 0));
}
