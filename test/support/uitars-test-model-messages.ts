import { z } from 'zod';
import { demoTask } from '../../controlplane/src/platform/demo/demo-site-server.js';

/** Chat-completions request bodies as the test model accepts them (lenient, like vLLM). */
const textPartSchema = z.object({ type: z.literal('text'), text: z.string() });
const imagePartSchema = z.object({
  type: z.literal('image_url'),
  image_url: z.object({ url: z.string() }),
});
const contentPartSchema = z.union([
  textPartSchema,
  imagePartSchema,
  z.looseObject({ type: z.string() }),
]);
type ContentPart = z.infer<typeof contentPartSchema>;

const isImagePart = (part: ContentPart): part is z.infer<typeof imagePartSchema> =>
  imagePartSchema.safeParse(part).success;
const isTextPart = (part: ContentPart): part is z.infer<typeof textPartSchema> =>
  textPartSchema.safeParse(part).success;

const chatMessageSchema = z.looseObject({
  role: z.string(),
  content: z.union([z.string(), z.array(contentPartSchema), z.null()]),
});

/** The parts of a `POST /v1/chat/completions` body the test model reads. */
export const chatRequestSchema = z.looseObject({
  model: z.string().optional(),
  messages: z.array(chatMessageSchema).min(1),
  stream: z.boolean().optional(),
});

/** One chat message as received. */
export type ReceivedMessage = z.infer<typeof chatMessageSchema>;
/** A parsed chat-completions request. */
export type ChatRequest = z.infer<typeof chatRequestSchema>;

/** Every `image_url` URL in the messages, oldest first. */
export function imageUrls(messages: readonly ReceivedMessage[]): string[] {
  const urls: string[] = [];
  for (const message of messages) {
    if (!Array.isArray(message.content)) continue;
    for (const part of message.content) {
      if (isImagePart(part)) urls.push(part.image_url.url);
    }
  }
  return urls;
}

/** All text of one message (string content or its text parts, joined by newlines). */
export function messageText(message: ReceivedMessage): string {
  if (typeof message.content === 'string') return message.content;
  if (message.content === null) return '';
  return message.content
    .map((part) => (isTextPart(part) ? part.text : ''))
    .filter((text) => text !== '')
    .join('\n');
}

/** Text of the newest assistant message, or null when there is none. */
export function lastAssistantText(messages: readonly ReceivedMessage[]): string | null {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message?.role === 'assistant') return messageText(message);
  }
  return null;
}

/** What the scripted policy needs to know about the demo task. */
export interface DemoTaskInput {
  username: string;
  password: string;
  searchTerm: string;
  productName: string;
}

const instructionPattern =
  /username (\S+?) and password (\S+?),? search for "([^"]+)",? open "([^"]+)"/i;

/**
 * Reads the task from the instruction the way a model would: the first user-role text matching
 * the canonical demo instruction. Falls back to {@link demoTask}; `overrides` win over both.
 */
export function extractDemoTask(
  messages: readonly ReceivedMessage[],
  overrides: Partial<DemoTaskInput> = {},
): DemoTaskInput {
  let parsed: DemoTaskInput = {
    username: demoTask.username,
    password: demoTask.password,
    searchTerm: demoTask.searchTerm,
    productName: demoTask.productName,
  };
  for (const message of messages) {
    if (message.role !== 'user' && message.role !== 'system') continue;
    const match = instructionPattern.exec(messageText(message));
    if (match?.[1] && match[2] && match[3] && match[4]) {
      parsed = {
        username: match[1],
        password: match[2],
        searchTerm: match[3],
        productName: match[4],
      };
      break;
    }
  }
  return { ...parsed, ...overrides };
}
