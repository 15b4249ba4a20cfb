// `url_matches` patterns: a `*` glob over the whole URL, or a `/regex/flags` literal compiled with
// the linear-time engine. Checked when a task or wait is admitted (400), then reused when polling.
import { z } from 'zod';
import { compileLinearRegex, createRegexCache } from '../../governance/policy/linear-regex.js';

export type UrlPatternResult =
  | { success: true; matches: (url: string) => boolean }
  | { success: false; message: string };

/** Compiles a `url_matches` pattern. Never throws; an unusable pattern is `success: false`. */
export function compileUrlPattern(pattern: string): UrlPatternResult {
  const literal = /^\/(.+)\/([a-z]*)$/s.exec(pattern);
  if (literal) {
    const compiled = compileLinearRegex(literal[1] as string, literal[2]);
    if (!compiled.success) return { success: false, message: `${pattern}: ${compiled.message}` };
    const { regex } = compiled;
    return { success: true, matches: (url) => regex.test(url) };
  }
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\/]/g, '\\$&'))
    .join('.*');
  const compiled = compileLinearRegex(source, 's');
  if (!compiled.success) return { success: false, message: `${pattern}: ${compiled.message}` };
  const { regex } = compiled;
  return { success: true, matches: (url) => regex.testExact(url) };
}

const cached = createRegexCache(compileUrlPattern);

/**
 * True when `url` matches `pattern`. A pattern that does not compile matches nothing (admission
 * refuses those, so this only happens to patterns that bypassed validation).
 */
export function urlMatches(url: string, pattern: string): boolean {
  const compiled = cached(pattern);
  return compiled.success && compiled.matches(url);
}

/** The zod type of a `url_matches` pattern: refused at admission unless it compiles. */
export const urlPatternSchema = z
  .string()
  .min(1)
  .max(2000)
  .superRefine((pattern, context) => {
    const compiled = compileUrlPattern(pattern);
    if (!compiled.success) context.addIssue({ code: 'custom', message: compiled.message });
  });
