/** The subset of the OpenAI chat-completions message format Clawdie sends. */
export type ContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string } };

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string | ContentPart[];
}

export interface ModelRequest {
  messages: ChatMessage[];
}

export interface ModelReply {
  text: string;
  /** Size of the JSON body sent to the model server, in bytes. */
  requestBytes: number;
  usage: { promptTokens: number; completionTokens: number } | null;
}

/**
 * A vision-language model that continues a chat. Implementations: the OpenAI-compatible HTTP
 * client and the replay model. Rejects with ModelError (typed code) or an AbortError.
 */
export interface VisionModel {
  readonly name: string;
  /** True for recorded/replayed output, so results can be labelled as such. */
  readonly isReplay: boolean;
  complete(request: ModelRequest, signal?: AbortSignal): Promise<ModelReply>;
}
