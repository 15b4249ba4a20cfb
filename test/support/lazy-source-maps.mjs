// Preloaded (`--import`) into every test process by run-tests.sh in place of Node's
// `--enable-source-maps`: a stack trace through the compiled test tree (test-tree.mjs) names the
// TypeScript source, line and column, but a file's map (`x.js.map` beside it) is read only when a
// stack trace through that file is formatted. Node's flag parses the map of every module it loads,
// when it loads it: ≈ 0.18 s of CPU in each of the suite's ~390 test processes (docs/
// performance.md, "Test suite"). Frames outside the tree, or without a map, are left as they are.
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const TREE = `${['node_modules', '.cache', 'clawdie-tests'].join('/')}/`;

/** Each compiled file's map, read once; null when it has none. */
const maps = new Map();

function mapOf(path) {
  if (!maps.has(path)) {
    let map = null;
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8')));
    } catch {
      // No map beside it (a file copied, not compiled): the frame stays as it is.
    }
    maps.set(path, map);
  }
  return maps.get(path);
}

/** `file:line:column` in the TypeScript source, or null where there is nothing to map. */
function originalPosition(file, line, column) {
  if (!file?.includes(TREE) || line === null || column === null) return null;
  const path = file.startsWith('file:') ? fileURLToPath(file) : file;
  const entry = mapOf(path)?.findEntry(line - 1, column - 1);
  if (!entry || typeof entry.originalSource !== 'string' || entry.originalLine === undefined) {
    return null;
  }
  const source = entry.originalSource.startsWith('file:')
    ? fileURLToPath(entry.originalSource)
    : isAbsolute(entry.originalSource)
      ? entry.originalSource
      : resolve(dirname(path), entry.originalSource);
  return `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
}

/** One frame as V8 prints it, its position in the source where the tree has a map for it. */
function frame(site) {
  const printed = String(site);
  const file = site.getFileName();
  const line = site.getLineNumber();
  const column = site.getColumnNumber();
  const mapped = originalPosition(file, line, column);
  if (!mapped) return printed;
  const compiled = `${file}:${line}:${column}`;
  const at = printed.lastIndexOf(compiled);
  return at < 0
    ? printed
    : `${printed.slice(0, at)}${mapped}${printed.slice(at + compiled.length)}`;
}

function heading(error) {
  try {
    return error instanceof Error ? Error.prototype.toString.call(error) : String(error);
  } catch {
    return '<error>';
  }
}

Error.prepareStackTrace = (error, sites) =>
  [heading(error), ...sites.map((site) => `    at ${frame(site)}`)].join('\n');
