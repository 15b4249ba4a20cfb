// The port behind `POST /input` and `GET /signals`: a person driving the page during a takeover,
// and the detectors that tell the controlplane a person is needed. The adapter is
// browser/cdp-takeover.ts; the routes are takeover-routes.ts.
import type { InputReport, PageSignals, SupervisorInput } from '@clawdie/kit/jail-api';

export interface TakeoverPage {
  /**
   * Reads the page signals of every frame (password inputs, one-time-code inputs, CAPTCHA
   * frames). Never returns a field value. A frame that does not answer in time is skipped.
   */
  signals(knownOrigins: readonly string[]): Promise<PageSignals>;
  /**
   * Dispatches the supervisor's events in order (mouse/wheel at fractions of the viewport, keys,
   * inserted text) and reports how many went where (element kinds), never what was typed. Once
   * `signal` aborts (the caller gave up) no further event is sent, and keys and buttons this burst
   * pressed are let go, so a held Shift or button does not change what comes next.
   */
  input(events: readonly SupervisorInput[], signal?: AbortSignal): Promise<InputReport>;
}
