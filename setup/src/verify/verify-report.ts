// The plain-text report of `clawdie setup --verify-host`, meant to be pasted back as is.
import type { VerifyReport } from './verify-host.js';

export function formatReport(report: VerifyReport, date: Date = new Date()): string {
  const width = Math.max(...report.checks.map((check) => check.name.length), 10);
  const failed = report.checks.filter((check) => !check.ok).length;
  const isolation = report.isolation;
  const lines = [
    '=== clawdie verify-host report ===',
    `date:      ${date.toISOString()}`,
    `os:        ${report.facts.os}`,
    `node:      ${report.facts.node}`,
    `uid:       ${report.facts.uid ?? 'unknown'}`,
    `driver:    ${report.driver}`,
    `isolation: ${isolation ? isolation.level : 'unknown (probe failed)'}`,
    ...(isolation?.reasons ?? []).map((reason) => `  reason:  ${reason}`),
    ...report.notes.map((note) => `note:      ${note}`),
    '',
    ...report.checks.map(
      (check) =>
        `${check.ok ? 'PASS' : 'FAIL'}  ${check.name.padEnd(width)}  ${formatMs(check.ms)}  ${check.detail}`,
    ),
    '',
    report.ok
      ? `result: PASS (${report.checks.length} checks)`
      : `result: FAIL (${failed} of ${report.checks.length} checks failed)`,
    '=== end of report ===',
  ];
  return lines.join('\n');
}

function formatMs(ms: number): string {
  return `${ms.toFixed(1)} ms`.padStart(10);
}
