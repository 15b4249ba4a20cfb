import type { Logger } from 'pino';
import type { SessionProfileService } from '../../browser/sessions/session-profile-service.js';
import type { TakeoverAppDeps } from '../../browser/takeover/takeover-app-deps.js';
import type { WaitService } from '../../browser/wait/wait-service.js';
import type { ApprovalService } from '../../governance/approvals/approval-service.js';
import type { AuditLog } from '../../governance/audit/audit-log.js';
import type { TokenVerifier } from '../../governance/auth/api-tokens.js';
import type { AuthFailureLimiter } from '../../governance/auth/auth-failure-limiter.js';
import type { ArtifactFiles } from '../../platform/store/artifact-files.js';
import type { TaskRepository } from '../../platform/store/task-repository.js';
import type { ReplicaCommands } from '../../tasks/task-commands.js';
import type { TaskService } from '../../tasks/task-service.js';
import type { DashboardOptions } from '../dashboard/dashboard-routes.js';
import type { ForwardVerifier } from './replica-forward/accept-forwarded.js';
import type { ReplicaForward } from './replica-forward/forward-to-owner.js';

export interface AppDeps {
  tasks: TaskService;
  /** Abort, pause and resume of tasks other replicas run; absent: this process's tasks only. */
  replicas?: ReplicaCommands | undefined;
  repository: TaskRepository;
  logger: Logger;
  /** Progress total for MCP calls that set no max_steps. */
  defaultMaxSteps: number;
  /** What /health reports about the configured model and browser, to admin tokens only. */
  describe: () => { model: { name: string; replay: boolean }; jail: { url: string } };
  /** Bearer-token auth for `/v1/*` and `/mcp`; absent = off (the server then binds loopback only). */
  auth?: { verifier: TokenVerifier } | null;
  /**
   * The one failure limiter of every refusing route (bearer auth, dashboard login, takeover);
   * absent: the app makes its own from `failures` (the composition root passes one it closes).
   */
  refusals?: AuthFailureLimiter | undefined;
  /** Refused requests per client address and window before 429 (`config.authFailures`). */
  failures?: { limit: number; windowMs: number } | undefined;
  /** Peers whose X-Forwarded-For is believed (`config.trustedProxies`); default none. */
  trustedProxies?: readonly string[] | undefined;
  /** Where auth failures (and, through the routes, other decisions) are recorded. */
  audit?: AuditLog;
  /** Supervisor approvals answerable at `/v1/approvals` (admin scope); not mounted when absent. */
  approvals?: ApprovalService | undefined;
  /** The admin dashboard at `/dashboard` (own cookie login); not mounted when absent. */
  dashboard?: DashboardOptions | undefined;
  /** `/v1/waits` on the controlplane's browser (docs/waits.md); not mounted when absent. */
  waits?: WaitService | undefined;
  /** Saved session profiles at `/v1/sessions` (operate scope); not mounted when absent. */
  sessions?: SessionProfileService | undefined;
  /** Human takeover: `/v1/tasks/:id/takeover`, `/hand-back` and `/takeover/*`; off when absent. */
  takeover?: TakeoverAppDeps | undefined;
  /** Tasks' downloaded files (`/v1/tasks/:id/artifacts`); absent: every task lists none. */
  artifacts?: ArtifactFiles | undefined;
  /**
   * Replicas on one store: task routes that need the running replica's memory or files are
   * forwarded to it (`toOwner`), and forwards from other replicas are verified (`verifier`).
   * Absent: one process; a request carrying forward headers is refused.
   */
  forward?: { toOwner: ReplicaForward; verifier: ForwardVerifier } | undefined;
  /** Bound on every request body (413 past it); default 1 MiB. */
  maxBodyBytes?: number | undefined;
}
