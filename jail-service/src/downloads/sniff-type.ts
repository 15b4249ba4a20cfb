// A download's type from its bytes (magic numbers, then text checks), never from its headers or
// its name. Reads the head of the file (and a little of its tail for JSON).
import { type DownloadKind, isControlChar } from '@clawdie/kit/jail-api';

/** How much of the start of a file the sniffer looks at. */
export const SNIFF_HEAD_BYTES = 64 * 1024;
/** How much of the end of a file the JSON check looks at. */
export const SNIFF_TAIL_BYTES = 1024;

export const MIME_OF: Readonly<Record<DownloadKind, string>> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  zip: 'application/zip',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv',
  json: 'application/json',
  text: 'text/plain',
  binary: 'application/octet-stream',
};

const starts = (bytes: Uint8Array, magic: readonly number[], at = 0) =>
  bytes.length >= at + magic.length && magic.every((byte, index) => bytes[at + index] === byte);
const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

/**
 * The kind of a file whose first bytes are `head` and last bytes `tail` (`size` in all). `head`
 * holds the whole file when `size <= head.length`.
 */
export function sniffKind(head: Uint8Array, tail: Uint8Array, size: number): DownloadKind {
  if (starts(head, ascii('%PDF-'))) return 'pdf';
  if (starts(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (starts(head, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (starts(head, ascii('GIF87a')) || starts(head, ascii('GIF89a'))) return 'gif';
  if (starts(head, ascii('RIFF')) && starts(head, ascii('WEBP'), 8)) return 'webp';
  if (starts(head, [0x50, 0x4b, 0x03, 0x04]) || starts(head, [0x50, 0x4b, 0x05, 0x06]))
    return zipKind(head);
  const text = utf8Text(head);
  if (text === null) return 'binary';
  if (looksLikeJson(text, tail, size <= head.length)) return 'json';
  return looksLikeCsv(text) ? 'csv' : 'text';
}

/** An Office Open XML document names its parts (`word/…`, `xl/…`) in its first local headers. */
function zipKind(head: Uint8Array): DownloadKind {
  const names = new TextDecoder('latin1').decode(head);
  if (!names.includes('[Content_Types].xml')) return 'zip';
  if (names.includes('word/')) return 'docx';
  if (names.includes('xl/')) return 'xlsx';
  return 'zip';
}

/** The head as text when it is UTF-8 without NULs or other binary control bytes, else null. */
function utf8Text(head: Uint8Array): string | null {
  let text: string;
  try {
    // `stream`: a multi-byte character cut at the end of the head is not an error.
    text = new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
  } catch {
    return null;
  }
  // Controls other than tab, line feed, form feed and carriage return mean binary.
  const binary = [...text].some((char) => isControlChar(char) && !'\t\n\f\r'.includes(char));
  return binary ? null : text.replace(/^\uFEFF/, '');
}

function looksLikeJson(head: string, tail: Uint8Array, whole: boolean): boolean {
  const start = head.trimStart()[0];
  if (start !== '{' && start !== '[') return false;
  if (whole) {
    try {
      JSON.parse(head);
      return true;
    } catch {
      return false;
    }
  }
  const end = new TextDecoder('utf-8').decode(tail).trimEnd().at(-1);
  return (start === '{' && end === '}') || (start === '[' && end === ']');
}

/** At least two lines, and the first few all split into the same number (≥ 2) of fields. */
function looksLikeCsv(text: string): boolean {
  const lines = text
    .split(/\r?\n/)
    .slice(0, 6)
    .filter((line, index, all) => line !== '' || index < all.length - 1)
    .slice(0, 5);
  if (lines.length < 2) return false;
  return [',', ';', '\t'].some((separator) => {
    const counts = lines.map((line) => line.split(separator).length - 1);
    return (counts[0] ?? 0) >= 1 && counts.every((count) => count === counts[0]);
  });
}
