// TypeBox parameters of browser_run_task, generated from the controlplane's one declaration of the
// task input (controlplane/src/tasks/task-input-fields.ts): descriptions, limits, enums and
// defaults are the server's. The server still re-validates every call, including the rules JSON
// Schema cannot state (start_url inside domains, credential_mode session ⇔ session, a compiling
// result_schema, a non-blank instruction); a call breaking one of those ends with its 400 message.
import { type TUnsafe, Type } from 'typebox';
import { z } from 'zod';
import { browserRunTaskFields } from '../src/tasks/task-input-fields.js';

const inputObject = z.strictObject(browserRunTaskFields);

/** The arguments an LLM passes to `browser_run_task`; the POST /v1/tasks body. */
export type BrowserRunTaskParams = z.input<typeof inputObject>;

/**
 * The JSON Schema pi validates the arguments with and sends to the model provider. zod writes a
 * string enum as `{type: "string", enum: [...]}` (pi-ai's `StringEnum` shape: a union of literals
 * breaks Google models); `$schema` is dropped because some providers refuse meta keywords.
 */
function toolInputSchema(): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(inputObject, {
    io: 'input',
    unrepresentable: 'throw',
  });
  return schema;
}

export const browserRunTaskParameters: TUnsafe<BrowserRunTaskParams> =
  Type.Unsafe<BrowserRunTaskParams>(toolInputSchema());
