import { readFileSync } from 'node:fs';

/** The controlplane package's version (same depth from src/ and dist/). */
export function clawdieVersion(): string {
  const file = new URL('../../../package.json', import.meta.url);
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}
