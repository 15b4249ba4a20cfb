// `clawdie hosts list|add|drain|remove` on the store directly (every controlplane on the database
// sees the change at its next heartbeat round). `add` prints the host's token alone on stdout, so
// `TOKEN=$(clawdie hosts add …)` works; everything else is a table or JSON on stdout.
import { systemClock } from '../../clock.js';
import type { Config } from '../../config.js';
import { createHostRegistry, type HostView, heartbeatAgeOf } from '../../fleet/host-registry.js';
import { openAuditTrail } from '../../governance/audit/open-audit-trail.js';
import { loadVaultKey } from '../../governance/credentials/secret-vault.js';
import { printJson, printLine } from './cli-output.js';
import { openCliStores } from './cli-stores.js';
import type { Command } from './command.js';

export type HostsCommand = Extract<
  Command,
  { name: 'hosts-list' | 'hosts-add' | 'hosts-drain' | 'hosts-resume' | 'hosts-remove' }
>;

export async function runHostsCommand(
  command: HostsCommand,
  config: Readonly<Config>,
  out: (text: string) => void = (text) => process.stdout.write(text),
): Promise<number> {
  const stores = await openCliStores(config);
  const audit = await openAuditTrail(stores.audit, {
    keyFile: config.auditKeyFile,
    clock: systemClock,
    mode: 'append',
    shared: stores.backend === 'postgres',
  });
  try {
    const registry = createHostRegistry({
      store: stores.hosts,
      key: () => loadVaultKey(config.secretsKeyFile, { create: command.name === 'hosts-add' }),
      audit,
      now: () => systemClock.now(),
      staleMs: config.fleet.staleMs,
    });
    switch (command.name) {
      case 'hosts-list': {
        const hosts = await registry.list();
        if (command.json) printJson({ hosts });
        else out(hostTable(hosts, systemClock.now()));
        return 0;
      }
      case 'hosts-add': {
        const { token } = await registry.add(
          {
            name: command.host,
            url: command.url,
            labels: command.labels,
            capacity: command.capacity,
          },
          'cli',
        );
        out(`${token}\n`);
        printLine(
          `registered host ${command.host} at ${command.url}: set the token above as CLAWDIE_HOSTD_TOKEN on that host (it is not shown again)`,
        );
        return 0;
      }
      case 'hosts-drain':
        await registry.drain(command.host, 'cli');
        printLine(`host ${command.host} drains: no new task goes there, its running tasks go on`);
        return 0;
      case 'hosts-resume':
        await registry.resume(command.host, 'cli');
        printLine(`host ${command.host} takes new tasks again`);
        return 0;
      case 'hosts-remove':
        await registry.remove(command.host, 'cli', { force: command.force });
        printLine(`removed host ${command.host}; its token is revoked`);
        return 0;
    }
  } finally {
    audit.close();
    await stores.close();
  }
}

const ago = (ageMs: number | null) => (ageMs === null ? '-' : `${Math.round(ageMs / 1000)}s ago`);

/** One line per host: name, state, health, load, heartbeat age, labels, URL, last error. */
export function hostTable(hosts: readonly HostView[], now: number): string {
  if (hosts.length === 0) return 'no jail hosts registered (clawdie hosts add NAME --url URL)\n';
  const rows = hosts.map((host) => [
    host.name,
    host.state,
    host.health,
    `${host.clones}/${host.capacity}`,
    ago(heartbeatAgeOf(host, now)),
    Object.entries(host.labels)
      .map(([key, value]) => `${key}=${value}`)
      .join(',') || '-',
    host.url,
    host.lastError ?? '',
  ]);
  const header = ['NAME', 'STATE', 'HEALTH', 'CLONES', 'HEARTBEAT', 'LABELS', 'URL', 'LAST ERROR'];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  return `${[header, ...rows].map(line).join('\n')}\n`;
}
