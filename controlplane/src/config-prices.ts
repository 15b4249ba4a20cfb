// CLAWDIE_MODEL_PRICES: what a model's tokens cost, per model name (docs/models.md, "Usage and
// cost"). Inline JSON, or the path of a JSON file; parsed with zod once, at start.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { ConfigError } from './errors.js';

const price = z.number().min(0).max(1_000_000);

/** One model's prices, per million tokens. */
export const modelPriceSchema = z.strictObject({
  input_per_million: price,
  output_per_million: price,
  /** A currency code, e.g. USD or EUR (default USD). */
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'a three-letter currency code such as USD')
    .default('USD'),
});

/** Model name (as CLAWDIE_MODEL_NAME / CLAWDIE_JUDGE_NAME spell it) → its prices. */
export const modelPricesSchema = z.record(z.string().min(1), modelPriceSchema);

export type ModelPrice = z.output<typeof modelPriceSchema>;
export type ModelPrices = Readonly<Record<string, ModelPrice>>;

/**
 * The price table: `{}` when unset; JSON when the value starts with `{`, else a file path
 * (relative to `cwd`). Throws ConfigError naming the variable and the first problem.
 */
export function parseModelPrices(value: string | undefined, cwd: string): ModelPrices {
  if (value === undefined) return {};
  const inline = value.trimStart().startsWith('{');
  const where = inline ? 'CLAWDIE_MODEL_PRICES' : `CLAWDIE_MODEL_PRICES file ${value}`;
  let raw: unknown;
  try {
    raw = JSON.parse(inline ? value : readFileSync(resolve(cwd, value), 'utf8'));
  } catch (error) {
    throw new ConfigError(`${where}: ${(error as Error).message}`);
  }
  const parsed = modelPricesSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`${where}: ${issue?.path.join('.') || '(root)'}: ${issue?.message}`);
  }
  return Object.freeze(parsed.data);
}
