// zfs(8) from OpenZFS 2.2.7 (SOURCES.zfs): the subcommands the driver and setup run, each with the
// getopt string of its zfs_do_<command>() and its operand count; property names from zfs_prop.c
// (native) or zfs_prop_user() (user properties: lowercase [a-z0-9:._-] with a ':').
import { bsdGetopt, type GetoptResult, operandCount, values } from './getopt.js';

const NATIVE_PROPERTIES = new Set(
  (
    'redundant_metadata sync checksum dedup compression snapdir snapdev aclmode acltype ' +
    'aclinherit copies primarycache secondarycache prefetch logbias xattr dnodesize volmode atime ' +
    'relatime devices exec setuid readonly jailed zoned vscan nbmand overlay version canmount ' +
    'mounted defer_destroy keystatus normalization casesensitivity keyformat encryption utf8only ' +
    'origin clones mountpoint sharenfs type sharesmb mlslabel context fscontext defcontext ' +
    'rootcontext encryptionroot keylocation used available referenced compressratio ' +
    'refcompressratio volblocksize usedbysnapshots usedbydataset usedbychildren ' +
    'usedbyrefreservation userrefs written logicalused logicalreferenced filesystem_count ' +
    'snapshot_count guid createtxg pbkdf2iters objsetid quota reservation volsize refquota ' +
    'refreservation filesystem_limit snapshot_limit recordsize numclones name creation ' +
    'snapshots_changed'
  ).split(' '),
);
/** `zfs list -t` words (zfs_do_list type_subopts). */
const LIST_TYPES = new Set([
  'filesystem',
  'fs',
  'volume',
  'vol',
  'snapshot',
  'snap',
  'bookmark',
  'all',
]);

export function isUserProperty(name: string): boolean {
  return /^[a-z0-9:._-]+$/.test(name) && name.includes(':');
}

function propertyProblems(name: string): string[] {
  return NATIVE_PROPERTIES.has(name) || isUserProperty(name) ? [] : [`bad property "${name}"`];
}

function assignments(list: readonly string[]): string[] {
  return list.flatMap((item) => {
    const at = item.indexOf('=');
    if (at <= 0) return [`-o expects property=value, got "${item}"`];
    return propertyProblems(item.slice(0, at));
  });
}

interface Subcommand {
  optstring: string;
  operands: [number, number];
  check?: (parsed: GetoptResult) => string[];
}

const snapshotOperand = (operand: string | undefined) =>
  operand?.includes('@') ? [] : [`"${operand}" is not a snapshot (no @)`];

const SUBCOMMANDS: Record<string, Subcommand> = {
  clone: {
    optstring: 'o:p',
    operands: [2, 2],
    check: (p) => [...assignments(values(p, 'o')), ...snapshotOperand(p.operands[0])],
  },
  create: {
    optstring: ':PV:b:nso:puv',
    operands: [1, 1],
    check: (p) => assignments(values(p, 'o')),
  },
  destroy: { optstring: 'vpndfrR', operands: [1, 1] },
  snapshot: {
    optstring: 'ro:',
    operands: [1, Number.POSITIVE_INFINITY],
    check: (p) => [...assignments(values(p, 'o')), ...p.operands.flatMap(snapshotOperand)],
  },
  list: {
    optstring: 'HS:d:o:prs:t:',
    operands: [0, Number.POSITIVE_INFINITY],
    check: (p) => [
      ...values(p, 'o').flatMap((list) => list.split(',').flatMap(propertyProblems)),
      ...values(p, 't').flatMap((list) =>
        list.split(',').flatMap((type) => (LIST_TYPES.has(type) ? [] : [`bad type "${type}"`])),
      ),
      ...values(p, 'd').flatMap((depth) => (/^\d+$/.test(depth) ? [] : [`bad depth "${depth}"`])),
    ],
  },
  get: { optstring: ':d:o:s:rt:Hp', operands: [1, Number.POSITIVE_INFINITY] },
  set: {
    optstring: 'u',
    operands: [2, Number.POSITIVE_INFINITY],
    check: (p) => assignments(p.operands.slice(0, -1)),
  },
};

export function validateZfs(args: readonly string[]): string[] {
  const [name = '', ...rest] = args;
  const subcommand = SUBCOMMANDS[name];
  if (!subcommand) return [`zfs: unknown or unmodelled subcommand "${name}"`];
  const parsed = bsdGetopt(rest, subcommand.optstring);
  return [
    ...parsed.problems,
    ...operandCount(parsed, ...subcommand.operands, `zfs ${name}`),
    ...(subcommand.check?.(parsed) ?? []),
  ].map((problem) => (problem.startsWith('zfs') ? problem : `zfs ${name}: ${problem}`));
}
