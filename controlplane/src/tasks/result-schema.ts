import { createRequire } from 'node:module';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { RegExpEngine } from 'ajv/dist/types/index.js';
import { AppError } from '../errors.js';
import { compileLinearRegex } from '../governance/policy/linear-regex.js';
import { checkJsonBounds } from './json-bounds.js';

/** Bounds of a caller's `result_schema`, checked before anything walks it recursively. */
export const RESULT_SCHEMA_LIMITS = { depth: 32, nodes: 10_000, bytes: 64 * 1024 } as const;

/** `pattern` / `patternProperties` run on the linear-time engine: no ReDoS on a model's answer. */
const linearRegExp: RegExpEngine = Object.assign(
  (pattern: string, flags: string) => {
    const compiled = compileLinearRegex(pattern, flags);
    if (!compiled.success) throw new Error(`pattern ${pattern}: ${compiled.message}`);
    return { test: compiled.regex.test };
  },
  { code: 'linearRegExp' },
);

/** ajv (≈ 40 ms to load), loaded by the first task that brings a `result_schema`. */
const loadAjv = () => createRequire(import.meta.url)('ajv') as typeof import('ajv');

/** Checks `finished(content)`; `giveUp` says the model has used its one chance to fix it. */
export type FinalAnswerCheck = (
  content: string,
) => { ok: true; data: unknown } | { ok: false; message: string; giveUp: boolean };

/**
 * Compiles a caller's `result_schema` into a check of the model's final answer: the answer must
 * be JSON and valid against the schema. Throws AppError BAD_REQUEST (400) for an invalid schema.
 */
export function compileResultSchema(schema: Record<string, unknown>): FinalAnswerCheck {
  const bounds = checkJsonBounds(schema, RESULT_SCHEMA_LIMITS);
  if (bounds) throw new AppError('BAD_REQUEST', `result_schema: ${bounds}`, { status: 400 });
  const ajv = new (loadAjv().Ajv)({
    allErrors: true,
    strict: false,
    code: { regExp: linearRegExp },
  });
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(schema);
  } catch (error) {
    throw new AppError(
      'BAD_REQUEST',
      `result_schema: not a valid JSON Schema: ${(error as Error).message}`,
      { status: 400 },
    );
  }
  let failures = 0;
  return (content) => {
    let data: unknown;
    let message: string;
    try {
      data = JSON.parse(content);
      if (validate(data)) return { ok: true, data };
      message = describeErrors(validate.errors ?? []);
    } catch {
      message = 'the final answer is not valid JSON';
    }
    failures += 1;
    return { ok: false, message, giveUp: failures > 1 };
  };
}

function describeErrors(errors: ErrorObject[]): string {
  return errors
    .slice(0, 5)
    .map((error) => `${error.instancePath || '(root)'} ${error.message ?? 'is invalid'}`)
    .join('; ');
}

/** The instruction suffix telling the model what shape its final answer must have. */
export function resultSchemaInstruction(schema: Record<string, unknown>): string {
  return `\n\nWhen the task is done, call finished(content='...') where content is only a JSON value (no prose) valid against this JSON Schema: ${JSON.stringify(schema)}`;
}
