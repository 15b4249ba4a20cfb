// Issue 22 (2): for each model profile, a fake server that speaks the provider's real wire format
// drives a real task through the one composition root and the profile's real adapter; where each
// click lands is read from the page in Chromium, at 1280×800, 1366×768 and 1920×1080, each at
// DPR 1 and 2 (test/e2e/golden-coordinates-*.test.ts). A wrong convention
// (pixels vs 0–1000, the resize, the declared display, the DPR) lands the click off the marker.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { profileNamed } from '../../../controlplane/src/agent/profiles/index.js';
import type { LocalJailService } from '../../../controlplane/src/browser/provider/local-jail-service.js';
import { requires } from '../capabilities.js';
import { type StaticSite, startStaticSite } from '../static-site.js';
import { GOLDEN_FAKES, type GoldenFake } from './golden-fakes.js';
import { GOLDEN_SCREENS, markerBox, runGolden, startGoldenJail } from './golden-run.js';

/** Half the marker, less a pixel: a click this close to the centre is on the marker. */
const TOLERANCE = 3;

/**
 * The golden suite for the screens of the given device pixel ratios (one test file per part, for
 * time): `profiles` — each profile at its own format, or the fakes that pose as a server that
 * changes it (`served`: WebP for UI-TARS and Qwen on vLLM or SGLang); `widths` — only the screens
 * of these widths (default all three).
 */
export function goldenSuite(
  dprs: readonly (1 | 2)[],
  profiles: 'own' | 'served' = 'own',
  widths: readonly number[] = [1280, 1366, 1920],
): void {
  const fakes: readonly GoldenFake[] = GOLDEN_FAKES.filter(
    (fake) => (fake.imageFormat !== undefined) === (profiles === 'served'),
  );
  describe(
    `e2e: golden coordinates per model profile on a real page, DPR ${dprs.join(' and ')}, widths ${widths.join(', ')}${profiles === 'served' ? ', served formats' : ''}`,
    requires('chromium'),
    () => {
      let site: StaticSite;
      before(async () => {
        site = await startStaticSite({});
      });
      after(async () => {
        await site?.close();
      });

      const screens = GOLDEN_SCREENS.filter(
        (candidate) => dprs.includes(candidate.dpr) && widths.includes(candidate.width),
      );
      for (const screen of screens) {
        describe(`${screen.width}×${screen.height} at DPR ${screen.dpr}`, () => {
          let jail: LocalJailService;
          before(async () => {
            jail = await startGoldenJail(screen);
          });
          after(async () => {
            await jail?.stop();
          });

          for (const entry of fakes) {
            it(`${entry.label}: the click lands on the marker`, async () => {
              const { result, clicks, requests } = await runGolden(entry, screen, jail, site);
              const expected = markerBox(screen).centre;
              assert.equal(result.status, 'finished', JSON.stringify(result));
              assert.equal(clicks.length, 1, `clicks seen by the page: ${JSON.stringify(clicks)}`);
              // The image went in the profile's format (WebP for the hosted APIs, and for the
              // self-hosted ones on a server that says it decodes it), decoded by the fake.
              const format =
                entry.imageFormat ?? profileNamed(entry.profile, entry.modelName)?.image.format;
              assert.equal(requests[0]?.image?.format, format, entry.label);
              const [click] = clicks as [(typeof clicks)[number]];
              const off = Math.hypot(click.x - expected.x, click.y - expected.y);
              assert.ok(
                off <= TOLERANCE && click.hit,
                `${entry.label} clicked (${click.x}, ${click.y}), the marker's centre is (${expected.x}, ${expected.y}); the fake saw ${JSON.stringify(requests[0]?.image)} and answered ${JSON.stringify(requests[0]?.answered)}`,
              );
            });
          }
        });
      }
    },
  );
}
