// Which Chromium the jail-service starts. An explicit CLAWDIE_CHROMIUM_PATH always wins. Without
// one, a headless browser is Debian's headless shell (package chromium-headless-shell) when it is
// installed: the same Blink without the desktop browser around it, measured at about half the
// cold start and 0.6× the memory of /usr/bin/chromium (docs/performance.md, "The headless
// shell"). A headful one (the desktop surface on Xvfb) is always the full browser.

/** Debian's full browser (its wrapper script reads /etc/chromium.d). */
export const FULL_CHROMIUM = '/usr/bin/chromium';
/** Debian's headless shell, started directly (its /usr/bin wrapper does not exec). */
export const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';

export function chromiumBinary(options: {
  explicit: string | undefined;
  headless: boolean;
  exists: (path: string) => boolean;
}): string {
  if (options.explicit) return options.explicit;
  return options.headless && options.exists(HEADLESS_SHELL) ? HEADLESS_SHELL : FULL_CHROMIUM;
}
