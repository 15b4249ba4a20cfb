import type { TakeoverRouteDeps } from './takeover-routes.js';

/** What `/v1/tasks/:id/takeover`, `/hand-back` and `/takeover/*` need (AppDeps.takeover). */
export interface TakeoverAppDeps extends TakeoverRouteDeps {
  /** Base URL of links handed out (the controlplane as supervisors reach it). */
  publicUrl: string;
}
