/**
 * Deterministic JSON: object keys sorted, `undefined` members dropped, no whitespace. Two equal
 * values always encode to the same bytes, which is what a hash chain needs.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'null';
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value))
    return value.map((item) => (item === undefined ? null : sortKeys(item)));
  if (value === null || typeof value !== 'object') return value;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return sortKeys((value as { toJSON(): unknown }).toJSON());
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const member = (value as Record<string, unknown>)[key];
    if (member !== undefined) out[key] = sortKeys(member);
  }
  return out;
}
