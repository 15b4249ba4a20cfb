/** Limits on a JSON value from a caller: nesting depth, number of values, serialized UTF-8 size. */
export interface JsonBounds {
  depth: number;
  nodes: number;
  bytes: number;
}

/**
 * Checks `value` (parsed JSON) against `bounds` without recursion, so a value nested 100k deep
 * cannot overflow the stack here. Returns what is exceeded, or null when within bounds. The size
 * is measured only once depth and count are known to be small (JSON.stringify recurses).
 */
export function checkJsonBounds(value: unknown, bounds: JsonBounds): string | null {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 1 }];
  let nodes = 0;
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop() as { value: unknown; depth: number };
    nodes += 1;
    if (nodes > bounds.nodes) return `has more than ${bounds.nodes} values`;
    if (depth > bounds.depth) return `is nested deeper than ${bounds.depth} levels`;
    if (current !== null && typeof current === 'object') {
      const children = Array.isArray(current) ? current : Object.values(current);
      if (nodes + stack.length + children.length > bounds.nodes) {
        return `has more than ${bounds.nodes} values`;
      }
      for (const child of children) stack.push({ value: child, depth: depth + 1 });
    }
  }
  const bytes = Buffer.byteLength(JSON.stringify(value) ?? '');
  return bytes > bounds.bytes ? `is larger than ${bounds.bytes} bytes serialized` : null;
}
