// Warm-pool priming: a clone's first screenshot, taken and dropped before a task sees it.
import type { CloneService } from '../drivers/jail-driver.js';

/**
 * Takes one screenshot and drops it: Chromium's first frame on a fresh page (compositor start,
 * first raster, JPEG encoder warm-up) is several times slower than the next ones.
 */
export async function primeFirstScreenshot(
  service: CloneService,
  signal: AbortSignal,
): Promise<void> {
  const response = await fetch(`${service.url}/screenshot`, {
    headers: { authorization: `Bearer ${service.token}` },
    signal,
  });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`priming screenshot: HTTP ${response.status}`);
}
