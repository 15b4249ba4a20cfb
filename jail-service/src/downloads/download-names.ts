// A download's label: the browser's suggested file name made safe as one path component (no
// directories, no controls, bounded), unique within the task; and its source URL, bounded.
import { isControlChar, MAX_DOWNLOAD_NAME_CHARS } from '@clawdie/kit/jail-api';

/** Longest URL kept; a data: or blob: URL keeps its first 200 characters. */
const MAX_URL_CHARS = 2048;
const MAX_INLINE_URL_CHARS = 200;

export function downloadName(suggested: string, taken: ReadonlySet<string>): string {
  const last = suggested.split(/[/\\]/).pop() ?? '';
  let name = [...last]
    .filter((char) => !isControlChar(char))
    .join('')
    .trim()
    .slice(0, MAX_DOWNLOAD_NAME_CHARS);
  if (name === '' || /^\.+$/.test(name)) name = 'download';
  if (!taken.has(name)) return name;
  const dot = name.lastIndexOf('.');
  const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let n = 2; ; n += 1) {
    const suffix = ` (${n})${extension}`;
    const candidate = `${stem.slice(0, MAX_DOWNLOAD_NAME_CHARS - suffix.length)}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

export function sourceUrl(url: string): string {
  const inline = /^(data|blob):/i.test(url);
  return url.slice(0, inline ? MAX_INLINE_URL_CHARS : MAX_URL_CHARS);
}
