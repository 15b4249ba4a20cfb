// Import cycles of a source tree, counting type-only imports and re-exports too (Biome's
// noImportCycles does not see every type-only cycle). Relative specifiers only: a package's own
// files; packages are separated by their package.json dependencies.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const SPECIFIER = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+'(\.{1,2}\/[^']+)'/g;

/** Every group of files (relative to `root`) that import each other in a circle. */
export function importCycles(root: string): string[][] {
  const files = new Set(sourceFiles(resolve(root)));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const deps: string[] = [];
    for (const match of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
      const target = resolve(dirname(file), (match[1] ?? '').replace(/\.js$/, '.ts'));
      if (files.has(target)) deps.push(target);
    }
    graph.set(file, deps);
  }
  // Tarjan's strongly connected components.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    for (;;) {
      const member = stack.pop() as string;
      onStack.delete(member);
      group.push(relative(root, member));
      if (member === node) break;
    }
    const selfImport = graph.get(node)?.includes(node) ?? false;
    if (group.length > 1 || selfImport) groups.push(group.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return groups;
}

/** One import statement with a relative specifier: who imports what, and which value names. */
export interface RelativeImport {
  /** The importing file, relative to the repository root. */
  file: string;
  /** The imported file, relative to the repository root (`.ts`). */
  target: string;
  /** Value (non-type) names imported; `*` for a namespace or default import. */
  values: string[];
}

const IMPORT_STATEMENT = /(?:^|\n)\s*import\s+(type\s+)?([^;]*?)\s+from\s+'(\.{1,2}\/[^']+)'/g;

/** Every relative import of the `.ts` files under `dirs` (paths relative to `repositoryRoot`). */
export function relativeImports(repositoryRoot: string, dirs: readonly string[]): RelativeImport[] {
  const base = resolve(repositoryRoot);
  return dirs.flatMap((dir) =>
    sourceFiles(resolve(base, dir)).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(IMPORT_STATEMENT)].map((match) => {
        const [, typeOnly, clause = '', specifier = ''] = match;
        const target = resolve(dirname(file), specifier.replace(/\.js$/, '.ts'));
        const named = /\{([^}]*)\}/.exec(clause)?.[1] ?? '';
        const other = clause
          .replace(/\{[^}]*\}/, '')
          .replace(/,/g, ' ')
          .trim();
        const values = typeOnly
          ? []
          : [
              ...named
                .split(',')
                .map((name) => name.trim())
                .filter((name) => name !== '' && !name.startsWith('type '))
                .map((name) => name.split(/\s+as\s+/)[0] ?? name),
              ...(other ? ['*'] : []),
            ];
        return { file: relative(base, file), target: relative(base, target), values };
      }),
    ),
  );
}
