import type { BrowserRunTaskInput } from '../../tasks/task-input.js';

/** What the CLI was asked to do, once its arguments are parsed and checked. */
export type Command =
  | { name: 'run'; input: BrowserRunTaskInput; tenant: string | undefined; json: boolean }
  | { name: 'demo'; json: boolean }
  | { name: 'serve' }
  | { name: 'mcp' }
  | { name: 'audit-verify'; json: boolean }
  | { name: 'keys-rotate'; keep: number }
  | { name: 'token-create'; tenant: string; scopes: string[]; ttlSeconds: number; subject: string }
  | { name: 'secret-set'; secret: string; tenant: string }
  | { name: 'session-list'; tenant: string | undefined }
  | {
      name: 'session-save';
      taskId: string;
      session: string;
      origins: string[];
      ttlS: number | undefined;
      tenant?: undefined;
    }
  | { name: 'session-revoke'; session: string; tenant: string | undefined }
  | { name: 'hosts-list'; json: boolean }
  | {
      name: 'hosts-add';
      host: string;
      url: string;
      labels: Record<string, string>;
      capacity: number;
    }
  | { name: 'hosts-drain'; host: string }
  | { name: 'hosts-resume'; host: string }
  | { name: 'hosts-remove'; host: string; force: boolean }
  | { name: 'backup'; destination: string; dataDir: string | undefined }
  | { name: 'restore'; source: string; dataDir: string | undefined }
  /** `clawdie help`, `--help`, `<command> --help`: `text` goes to stdout. */
  | { name: 'help'; text: string };
