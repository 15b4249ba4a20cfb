import { readFileSync } from 'node:fs';

/**
 * The demo site's HTML templates (`controlplane/demo-site/*.html` and `style.css`). Resolved
 * relative to this module, so the same `../../demo-site` path works from `src/demo/` under tsx and
 * from `dist/demo/` in compiled JS.
 */
export const demoSiteDirectory = new URL('../../../demo-site/', import.meta.url);

const templateNames = [
  'layout',
  'account',
  'login',
  'login-error',
  'search-form',
  'search',
  'results',
  'result-item',
  'item',
  'not-found',
] as const;

/** Name of one template file, without `.html`. */
export type DemoTemplateName = (typeof templateNames)[number];

/** Loaded templates plus the inline stylesheet. */
export interface DemoTemplates {
  readonly html: Readonly<Record<DemoTemplateName, string>>;
  readonly style: string;
}

/**
 * Reads every template once, synchronously (the site is tiny and this runs at app creation).
 * Throws the file-system error when a template is missing, so a broken build fails at start.
 */
export function loadDemoTemplates(directory: URL = demoSiteDirectory): DemoTemplates {
  const html = {} as Record<DemoTemplateName, string>;
  for (const name of templateNames) {
    html[name] = readFileSync(new URL(`${name}.html`, directory), 'utf8').trimEnd();
  }
  return Object.freeze({
    html: Object.freeze(html),
    style: readFileSync(new URL('style.css', directory), 'utf8').trim(),
  });
}

const htmlEscapes: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML element content and double- or single-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => htmlEscapes[character] ?? character);
}

const placeholderPattern = /\{\{\{\s*([\w-]+)\s*\}\}\}|\{\{\s*([\w-]+)\s*\}\}/g;

/**
 * Fills `{{name}}` (HTML-escaped) and `{{{name}}}` (inserted raw: only for markup this module
 * produced) placeholders. A placeholder without a value is a bug and throws.
 */
export function renderTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(placeholderPattern, (_match, rawKey?: string, escapedKey?: string) => {
    const key = rawKey ?? escapedKey ?? '';
    const value = values[key];
    if (value === undefined) throw new Error(`demo template placeholder {{${key}}} has no value`);
    return rawKey === undefined ? escapeHtml(value) : value;
  });
}
