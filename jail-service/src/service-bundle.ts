// The jail-service's one-file bundle (scripts/bundle.mjs): a clone, or the local jail-service of
// `npm start` and `clawdie run`, loads it in a fraction of the time the ~700 compiled module files
// take. hostd (drivers/select-driver.ts) and the controlplane (browser/provider/
// local-jail-service.ts) run it only while it is current.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Where the jail-service's build writes its bundle, relative to the package. */
export const SERVICE_BUNDLE = join('dist', 'bundle', 'main.mjs');

/**
 * The bundle's path when it exists and is at least as new as every compiled `.js` under the given
 * `dist` directories (outside the bundle's own); else null, and the caller runs `dist/main.js`.
 */
export function currentBundle(packageDir: string, distDirs: readonly string[]): string | null {
  const bundle = join(packageDir, SERVICE_BUNDLE);
  if (!existsSync(bundle)) return null;
  const bundled = statSync(bundle).mtimeMs;
  const newer = (dir: string): boolean => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (path !== join(packageDir, 'dist', 'bundle') && newer(path)) return true;
      } else if (entry.name.endsWith('.js') && statSync(path).mtimeMs > bundled) return true;
    }
    return false;
  };
  return distDirs.some((dir) => existsSync(dir) && newer(dir)) ? null : bundle;
}
