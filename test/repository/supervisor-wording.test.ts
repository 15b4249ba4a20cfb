// "Operator" means the BrowserOperator port only (issue 21 (4)); the person who approves, answers,
// gets notices and takes over is the supervisor, the one who runs Clawdie the admin
// (docs/architecture.md, "Words"). This fails when the human meaning creeps back into source,
// tests, docs or policies: wordings only a person fits ("an operator approves", "operator
// chats", "for operators"), the old identifiers, and the former public names outside the lines
// that pair them with the new ones. The port's own words (the wrapped operator, the desktop
// operators, OPERATOR_UNAVAILABLE) are left alone, and the patterns are checked against both.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const ROOTS = [
  'README.md',
  'package.json',
  'docs',
  'policies',
  'controlplane',
  'jail-service',
  'hostd',
  'setup',
  'test',
  'bench',
];
const SKIP_DIRS = new Set(['node_modules', 'dist', '.git']);
const TEXT = /\.(ts|mjs|js|md|yaml|yml|json|html|txt|sh)$/;

/** The alias tests name the former values on purpose; this file names every pattern. */
const ALLOWED_FILES = new Set([
  'test/controlplane/tasks/credential-mode-alias.test.ts',
  'test/repository/supervisor-wording.test.ts',
]);

/**
 * Lines in files other helpers were changing when this test came: reworded after their merge.
 * An entry whose line is gone fails too, so the list only shrinks.
 */
const PENDING: Record<string, string> = {};

/** Qualifiers that make "operators" the port (`the desktop operators`, `UI-TARS operators`). */
const PORT_PLURAL = /\b(?:browser|desktop|UI-TARS|reference|fake|HTTP|both|two) operators\b/gi;

/** What only a person does or has, said of an "operator". */
const HUMAN_MEANING: [string, RegExp][] = [
  ['plural "operators"', /\boperators\b/i],
  [
    'an operator who approves, answers, takes over, …',
    /\b(?:an?|the|no|any|every|one) operator (?:approves|approved|answers|answered|denies|declines|said|says|takes over|took over|hands back|handed back|logs in|signs in|types|typed|opens|saves|fixes|edits|presses|paused|reaches|gets|is asked|was asked|must approve|might approve)\b/i,
  ],
  [
    "an operator's approval, chat, notice, …",
    /\boperator(?:'s)? (?:approvals?|chats?|notices?|messages?|sessions?|answer|input|note|token|clipboard|password|habit|shell|copy)\b/i,
  ],
  [
    'asking or waiting for an operator',
    /\b(?:asks?|asked|needs?|need|waits? for|waiting for) (?:an?|the|any) operator\b/i,
  ],
  [
    'a kind of person called operator',
    /\b(?:human|test|local|scripted|tenant-[A-Z]|acme|globex) operator\b/i,
  ],
  ["an operator's (possessive after 'an')", /\ban operator's\b/i],
  [
    'the old identifiers',
    /\b(?:OperatorNotice|OperatorInput|operatorInputSchema|operatorHandled|operatorChat|operatorOf|notifyOperators|askOperator|operatorToken)\b|telegram-operators/,
  ],
];

/** The former public names, allowed only on a line that pairs them with the new one. */
const FORMER_NAMES: [RegExp, RegExp][] = [
  [/\boperator_approved\b/, /\bsupervisor_approved\b|\blegacyCredentialMode\b/],
  [/\boperator_in_control\b/, /\bsupervisor_in_control\b/],
];

function textFiles(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true }).flatMap((entry) => {
    if (SKIP_DIRS.has(entry.name)) return [];
    const child = join(path, entry.name);
    if (entry.isDirectory()) return textFiles(child);
    return TEXT.test(entry.name) && entry.name !== 'package-lock.json' ? [child] : [];
  });
}

/** What is wrong with one line, or null. */
function offence(line: string): string | null {
  const unqualified = line.replace(PORT_PLURAL, '');
  for (const [what, pattern] of HUMAN_MEANING) if (pattern.test(unqualified)) return what;
  for (const [former, paired] of FORMER_NAMES)
    if (former.test(line) && !paired.test(line)) return `${former.source} without its new name`;
  return null;
}

describe('the word "operator" means the browser port, the person is the supervisor', () => {
  it('no source, test, doc or policy line gives the person the port’s name', () => {
    const files = ROOTS.flatMap(textFiles).filter((file) => !ALLOWED_FILES.has(file));
    const pendingSeen = new Set<string>();
    const offenders = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) => {
          const what = offence(line);
          if (!what) return [];
          const pending = PENDING[file];
          if (pending && line.includes(pending)) {
            pendingSeen.add(file);
            return [];
          }
          return [`${file}:${index + 1}: ${what}: ${line.trim().slice(0, 100)}`];
        }),
    );
    assert.deepEqual(offenders, []);
    const stale = Object.keys(PENDING).filter((file) => !pendingSeen.has(file));
    assert.deepEqual(stale, [], 'reworded: remove these from PENDING');
    // The walk sees what it guards: the docs, the port, the takeover code, the policies.
    for (const file of [
      'README.md',
      'docs/architecture.md',
      'controlplane/src/browser/operator/browser-operator.ts',
      'controlplane/src/browser/takeover/takeover-routes.ts',
      'policies/default.yaml',
      'test/e2e/takeover-supervisor.ts',
    ])
      assert.ok(files.includes(file), file);
  });

  it('flags the old human wordings', () => {
    for (const line of [
      'answer operator approvals (admin)',
      '`{{secret:bank_password}}`, an operator approves, and the controlplane types the value',
      "'Operator approval refused (no operator answered before the timeout)'",
      'a `task-stuck` event for operators',
      "the operators' Telegram message with a signed link",
      '// Approval requests to Telegram operator chats',
      "<p>Waiting for an operator's approval (click)</p>",
      'asks an operator first when the policy says so',
      "controlplane.approvals.answer(record.id, 'approve', 'test operator');",
      'export type OperatorNotice = StuckNotice | NeedsUserNotice;',
      "const user = 'telegram-operators';",
      "credential_mode: 'operator_approved',",
      "data: { phase: 'operator_in_control', reason: active.reason },",
      'A tenant-B operator and an operator without `operate` get no link',
    ])
      assert.notEqual(offence(line), null, line);
  });

  it('leaves the port’s own words alone', () => {
    for (const line of [
      'import type { BrowserOperator } from "../operator/browser-operator.js";',
      ' * the wrapped operator then replaces `{{secret:name}}` in `type` actions with the value',
      'with an operator that fails every call, so it ends `error`/`OPERATOR_UNAVAILABLE`',
      "it('passes every other batch through to the operator', async () => {",
      '/** The default scroll distance in CSS pixels (UI-TARS operators use 500). */',
      'the jail-service, the desktop operators, the fake) — what the loop drives',
      'Clawdie is a self-hosted browser operator. You give it an instruction',
      "/** Checks success criteria; default: the operator's URL only (see verify-done.ts). */",
      "throw new OperatorError('OPERATOR_REJECTED', message);",
      "legacyCredentialMode = 'operator_approved'; // read as supervisor_approved",
    ])
      assert.equal(offence(line), null, line);
  });
});
