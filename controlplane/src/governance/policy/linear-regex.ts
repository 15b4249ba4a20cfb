// Caller-supplied regular expressions, compiled with a linear-time engine (re2js, an RE2 port):
// no backtracking, so `/(a+)+$/` on a long input answers in milliseconds instead of freezing the
// event loop (issue 12). Backreferences and lookarounds are refused at compile time.
import { RE2JS } from 're2js';

/** Bound on the compiled program: larger ones are refused (matching time grows with its size). */
export const MAX_REGEX_PROGRAM = 1000;

/** JS flags accepted in `/source/flags`; `g`, `u` and `v` change nothing for a yes/no test. */
const FLAG_BITS: Record<string, number> = {
  i: RE2JS.CASE_INSENSITIVE,
  m: RE2JS.MULTILINE,
  s: RE2JS.DOTALL,
  g: 0,
  u: 0,
  v: 0,
};

/** A compiled pattern: `test` looks for a match anywhere, `testExact` over the whole input. */
export interface LinearRegex {
  test(input: string): boolean;
  testExact(input: string): boolean;
}

export type LinearRegexResult =
  | { success: true; regex: LinearRegex }
  | { success: false; message: string };

/**
 * Compiles JS regex syntax (`source` without slashes, `flags` as in a literal) with RE2
 * semantics. Never throws: a syntax error, an unsupported feature or a pattern too large is
 * `success: false` with a message for the caller.
 */
export function compileLinearRegex(source: string, flags = ''): LinearRegexResult {
  let bits = 0;
  for (const flag of new Set(flags)) {
    const bit = FLAG_BITS[flag];
    if (bit === undefined) return { success: false, message: `unsupported regex flag "${flag}"` };
    bits |= bit;
  }
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(RE2JS.translateRegExp(source), bits);
  } catch (error) {
    return {
      success: false,
      message: `not a valid regular expression for the linear-time engine (no backreferences or lookarounds): ${(error as Error).message}`,
    };
  }
  const size = (compiled.re2() as { prog?: { inst?: unknown[] } }).prog?.inst?.length ?? 0;
  if (size > MAX_REGEX_PROGRAM) {
    return {
      success: false,
      message: `regular expression is too large (${size} instructions; at most ${MAX_REGEX_PROGRAM})`,
    };
  }
  return {
    success: true,
    regex: {
      test: (input) => compiled.test(input),
      testExact: (input) => compiled.testExact(input),
    },
  };
}

/** A bounded memo of compiled patterns, so a poll loop does not recompile every round. */
export function createRegexCache<T>(compile: (key: string) => T, size = 256): (key: string) => T {
  const entries = new Map<string, T>();
  return (key) => {
    const hit = entries.get(key);
    if (hit !== undefined) return hit;
    const value = compile(key);
    if (entries.size >= size) {
      const oldest = entries.keys().next().value;
      if (oldest !== undefined) entries.delete(oldest);
    }
    entries.set(key, value);
    return value;
  };
}
