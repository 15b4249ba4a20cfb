// Log rotation of the host daemons (FreeBSD): the repository's newsyslog.conf.d entry installed
// where FreeBSD's /etc/newsyslog.conf includes it. The rc.d scripts' daemon(8) -H makes the
// rotation work without a restart; hostd bounds the per-task logs itself.
import type { FreeBsdSetupConfig } from '../config.js';
import { ensure, type SetupStep } from './step.js';

export const NEWSYSLOG_DIR = '/usr/local/etc/newsyslog.conf.d';

export function freeBsdLogSteps(config: FreeBsdSetupConfig): SetupStep[] {
  const target = `${NEWSYSLOG_DIR}/clawdie.conf`;
  return [
    ensure({
      id: 'newsyslog-entry',
      title: `newsyslog rotates the daemons' logs (${target})`,
      argv: ['/usr/bin/cmp', '-s', config.newsyslogSource, target],
      plan: [
        { argv: ['/usr/bin/install', '-d', '-m', '0755', NEWSYSLOG_DIR] },
        { argv: ['/usr/bin/install', '-m', '0644', config.newsyslogSource, target] },
      ],
    }),
  ];
}
