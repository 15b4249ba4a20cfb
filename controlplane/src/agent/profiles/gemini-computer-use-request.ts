// The generateContent request body of the gemini-computer-use profile: `contents` (the
// instruction and first screenshot, then each model turn verbatim and the user turn answering it)
// and the `computerUse` tool. Every function call of a model turn is answered by a
// `functionResponse` with the same name (and id, when the call had one); the screenshot rides in
// the last response's own `parts` as `inlineData`, as the reference implementation sends it
// (google-gemini/computer-use-preview agent.py). Older screenshots leave the window the way the
// reference drops them: the response keeps its JSON, loses its `parts`.

import { mapGeminiCall } from './gemini-computer-use-calls.js';
import { keptImages } from './image-window.js';
import type { HistoryTurn, ProfileImage, RequestInput, SafetySignal } from './profile-types.js';

type Json = Record<string, unknown>;
type Observation = Extract<HistoryTurn, { kind: 'observation' }>;

/** Functions left out of the tool: Clawdie cannot go forward; a desktop has no navigation. */
export function excludedFunctions(actionSpace: RequestInput['actionSpace']): string[] {
  return actionSpace === 'browser'
    ? ['go_forward']
    : ['open_web_browser', 'go_back', 'go_forward', 'search', 'navigate'];
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The function calls of a model turn (`raw` = `candidates[0].content`), in order. */
export function functionCalls(raw: unknown): { name: string; args: Json; id?: string }[] {
  const parts = isObject(raw) && Array.isArray(raw.parts) ? raw.parts : [];
  const calls: { name: string; args: Json; id?: string }[] = [];
  for (const part of parts) {
    const call = isObject(part) ? part.functionCall : null;
    if (!isObject(call) || typeof call.name !== 'string') continue;
    const args = isObject(call.args) ? call.args : {};
    calls.push(
      typeof call.id === 'string'
        ? { name: call.name, args, id: call.id }
        : { name: call.name, args },
    );
  }
  return calls;
}

function inlineImage(image: ProfileImage): Json {
  return { inlineData: { mimeType: image.mediaType, data: image.base64 } };
}

function acknowledgedIndexes(signals: readonly SafetySignal[]): Set<number> {
  const indexes = new Set<number>();
  for (const signal of signals) {
    const ack = signal.ack;
    if (isObject(ack) && typeof ack.call === 'number') indexes.add(ack.call);
  }
  return indexes;
}

/** The user turn answering `reply` (a model turn with calls) with `observation`. */
function functionResponses(reply: unknown, observation: Observation, withImage: boolean): Json[] {
  const calls = functionCalls(reply);
  const acknowledged = acknowledgedIndexes(observation.acknowledged);
  return calls.map((call, index) => {
    const response: Json = {};
    if (observation.url !== undefined) response.url = observation.url;
    const outcome = mapGeminiCall(call.name, call.args);
    if (outcome.kind === 'refused') response.error = outcome.note;
    if (outcome.kind === 'invalid') response.error = outcome.message;
    if (acknowledged.has(index)) response.safety_acknowledgement = 'true';
    const last = index === calls.length - 1;
    if (last && observation.notes.length > 0) response.notes = [...observation.notes];
    const answer: Json = { name: call.name, response };
    if (call.id !== undefined) answer.id = call.id;
    if (last && withImage) answer.parts = [inlineImage(observation.image)];
    return { functionResponse: answer };
  });
}

function modelContent(raw: unknown): Json | null {
  if (!isObject(raw) || !Array.isArray(raw.parts) || raw.parts.length === 0) return null;
  return raw.role === 'model' ? raw : { ...raw, role: 'model' };
}

/** Builds `contents` and `tools`; deterministic, append-only but for images leaving the window. */
export function buildGeminiRequest(input: RequestInput): Record<string, unknown> {
  const windowed = keptImages(input.history, input.imageWindow);
  const contents: Json[] = [];
  let reply: unknown = null;
  let first = true;
  input.history.forEach((turn, index) => {
    if (turn.kind === 'reply') {
      const content = modelContent(turn.turn.raw);
      if (content !== null) contents.push(content);
      reply = content;
      return;
    }
    const observation: Observation = turn;
    const withImage = windowed.has(index);
    const parts: Json[] = [];
    if (first) parts.push({ text: input.instruction });
    if (reply !== null && functionCalls(reply).length > 0) {
      parts.push(...functionResponses(reply, observation, withImage));
    } else {
      for (const note of observation.notes) parts.push({ text: note });
      if (withImage) parts.push(inlineImage(observation.image));
    }
    if (parts.length > 0) contents.push({ role: 'user', parts });
    first = false;
    reply = null;
  });
  if (contents.length === 0) contents.push({ role: 'user', parts: [{ text: input.instruction }] });
  return {
    contents,
    tools: [
      {
        computerUse: {
          environment: 'ENVIRONMENT_BROWSER',
          excludedPredefinedFunctions: excludedFunctions(input.actionSpace),
        },
      },
    ],
  };
}
