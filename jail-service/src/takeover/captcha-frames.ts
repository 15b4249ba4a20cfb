// Known CAPTCHA widget frames, recognised by where the iframe loads from (host and path) or by
// the widget's own shape (its title and data attributes), so a self-hosted or proxied widget is
// still seen. Pure: the CDP adapter collects the frame facts.
import type { CaptchaKind } from '@clawdie/kit/jail-api';

export interface FrameFacts {
  src: string;
  title: string;
  /** Attribute names of the iframe element. */
  attributes: readonly string[];
  id: string;
}

const bySource: [CaptchaKind, RegExp][] = [
  [
    'recaptcha',
    /(^|[/.])recaptcha(\.net)?\/(api2|enterprise)\/(anchor|bframe)|google\.com\/recaptcha\//i,
  ],
  ['hcaptcha', /hcaptcha\.com\/|\/hcaptcha(\/|\.html)/i],
  ['turnstile', /challenges\.cloudflare\.com\/|\/cdn-cgi\/challenge-platform\//i],
];

const byShape: [CaptchaKind, (frame: FrameFacts) => boolean][] = [
  ['recaptcha', (f) => /^recaptcha/i.test(f.title) || f.attributes.includes('data-recaptcha')],
  [
    'hcaptcha',
    (f) => /hcaptcha/i.test(f.title) || f.attributes.includes('data-hcaptcha-widget-id'),
  ],
  [
    'turnstile',
    (f) => /cloudflare security challenge/i.test(f.title) || /^cf-chl-widget/.test(f.id),
  ],
];

/** The CAPTCHA kind an iframe is, or null. */
export function captchaOfFrame(frame: FrameFacts): CaptchaKind | null {
  for (const [kind, pattern] of bySource) if (pattern.test(frame.src)) return kind;
  for (const [kind, test] of byShape) if (test(frame)) return kind;
  return null;
}

/** The CAPTCHA kind of a frame's own URL (for cross-origin frames the parent cannot describe). */
export function captchaOfUrl(url: string): CaptchaKind | null {
  for (const [kind, pattern] of bySource) if (pattern.test(url)) return kind;
  return null;
}
