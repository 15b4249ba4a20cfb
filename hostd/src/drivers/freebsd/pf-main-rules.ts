// Does the main PF ruleset (`pfctl -sr`) fail closed for the task interfaces? Decided off-host from
// pf.conf(5) and pfctl's print_rule() (freebsd-src share/man/man5/pf.conf.5, sbin/pfctl/
// pfctl_parser.c), never run against a real pf:
// - PACKET FILTERING: "For block and pass, the last matching rule decides what action is taken",
//   and PARAMETERS, quick: "If a packet matches a rule which has the quick option set, this rule is
//   considered the last matching rule, and evaluation of subsequent rules is skipped." So a block
//   without quick is undone by any later matching pass in the admin's ruleset.
// - ANCHORS: "Matching filter and translation rules marked with the quick option are final and
//   abort the evaluation of the rules in other anchors and the main ruleset." Every rule of a task
//   anchor is quick (render.ts), so a loaded anchor decides its task's packets; the main ruleset's
//   block is what decides while the anchor is empty (not yet loaded, flushed, hostd down).
// Hence: `block drop quick on <group> all` must come AFTER `anchor "<pfAnchor>/*"` (before it, its
// quick match ends evaluation and the anchors' pass rules never run), and no `pass … quick` that can
// match a task interface may come before that block. print_rule() prints
// `block drop [in|out] [log[ (…)]] [quick] [on [!] IF] … all`, the words matched below.
// Not seen here: quick rules inside other anchors (their rules are not in `pfctl -sr`).

export interface MainRulesLayout {
  /** `anchor "<pfAnchor>/*"` hooks the task anchors. */
  readonly pfAnchor: string;
  /** The interface group of every task's host end. */
  readonly interfaceGroup: string;
}

/** The rule the setup hint asks for, placed after the anchor line. */
export function failClosedRule(group: string): string {
  return `block drop log quick on ${group} all`;
}

/** What is wrong with the main ruleset for the task interfaces, one sentence each; [] when sound. */
export function mainRulesProblems(rules: string, layout: MainRulesLayout): string[] {
  const lines = rules
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const group = layout.interfaceGroup;
  const anchor = `anchor "${layout.pfAnchor}/*"`;
  const anchorAt = lines.findIndex((line) => line === anchor || line.startsWith(`${anchor} `));
  if (anchorAt < 0) return [`the main PF ruleset has no \`${anchor}\``];
  const blocks = lines.flatMap((line, at) => (isFailClosedBlock(line, group) ? [at] : []));
  const blockAt = blocks.find((at) => at > anchorAt);
  if (blockAt === undefined) {
    if (blocks.length > 0) {
      return [
        `the main PF ruleset's \`block drop quick on ${group}\` comes before \`${anchor}\`: a quick match ends evaluation, so the task anchors' pass rules never run (pf.conf(5) ANCHORS); put it after the anchor`,
      ];
    }
    const unquick = lines.find((line) => /^block\b/.test(line) && onInterface(line) === group);
    return [
      unquick === undefined
        ? `the main PF ruleset does not block the interface group ${group} (\`${failClosedRule(group)}\` after \`${anchor}\`)`
        : `the main PF ruleset blocks ${group} without quick (\`${unquick}\`): pf's last matching rule wins, so a later pass opens the task path while its anchor is empty; use \`${failClosedRule(group)}\` after \`${anchor}\``,
    ];
  }
  return lines
    .slice(0, blockAt)
    .filter((line) => /^pass\b/.test(line) && / quick\b/.test(line) && mayMatchTask(line, group))
    .map(
      (line) =>
        `the main PF ruleset passes task traffic before its fail-closed block: \`${line}\` (quick: the first quick match is final)`,
    );
}

/** `block drop [log[ (…)]] quick on GROUP all`, optionally labelled: both directions, every family. */
function isFailClosedBlock(line: string, group: string): boolean {
  const head = `^block drop (?:log(?: \\([^)]*\\))? )?quick on ${escapeRegExp(group)} all`;
  return new RegExp(`${head}(?: label "[^"]*")*(?: ridentifier \\d+)?$`).test(line);
}

/** The interface (or group) of `on IF`, `!IF` for `on ! IF`, null without an `on` clause. */
function onInterface(line: string): string | null {
  const match = / on (! )?(\S+)/.exec(line);
  if (!match) return null;
  return match[1] === undefined ? (match[2] ?? null) : `!${match[2] ?? ''}`;
}

/**
 * True when a rule can match packets on a task's host end: no `on`, `on <group>`, `on epair` (every
 * epair interface is also in the cloner's group `epair`), or `on ! X` for any other X.
 */
function mayMatchTask(line: string, group: string): boolean {
  const on = onInterface(line);
  if (on === null) return true;
  if (on.startsWith('!')) return on.slice(1) !== group && on.slice(1) !== 'epair';
  return on === group || on === 'epair';
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
