import type { ElementsResponse, PageState } from '@clawdie/kit/jail-api';
import { elementsResponseSchema, pageStateSchema } from '@clawdie/kit/jail-api';
import sharp from 'sharp';

/** Pixel size of an image. */
export interface ImageSize {
  width: number;
  height: number;
}

/** Decodes the header of a `data:image/…;base64,…` URL with sharp and returns its pixel size. */
export async function imageSizeFromDataUrl(url: string): Promise<ImageSize> {
  const match = /^data:image\/[\w.+-]+;base64,(.*)$/s.exec(url);
  if (!match?.[1]) throw new Error(`image_url is not a base64 data URL: ${url.slice(0, 40)}…`);
  const metadata = await sharp(Buffer.from(match[1], 'base64')).metadata();
  if (!metadata.width || !metadata.height) throw new Error('image has no pixel size');
  return { width: metadata.width, height: metadata.height };
}

/** What the model "sees" besides the image: the jail-service's page state and elements. */
export interface JailObservation {
  state: PageState;
  elements: ElementsResponse;
}

/** Reads `GET /state` and `GET /elements` from a jail-service (Bearer token), validated. */
export async function observeJail(
  jailUrl: string,
  jailToken: string,
  fetchImpl: typeof fetch = fetch,
): Promise<JailObservation> {
  const get = async (path: string): Promise<unknown> => {
    // Relative to the base, so a jail URL with a path prefix keeps it.
    const base = jailUrl.endsWith('/') ? jailUrl : `${jailUrl}/`;
    const response = await fetchImpl(new URL(path.slice(1), base), {
      headers: { authorization: `Bearer ${jailToken}` },
    });
    if (!response.ok) throw new Error(`jail-service ${path} answered ${response.status}`);
    return response.json();
  };
  const [state, elements] = await Promise.all([get('/state'), get('/elements')]);
  return { state: pageStateSchema.parse(state), elements: elementsResponseSchema.parse(elements) };
}

/** Plain text of an HTML document: scripts and styles dropped, tags removed, entities decoded. */
export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_match, name: string) => entities[name] ?? ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const entities: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  '#39': "'",
  nbsp: ' ',
};

/** Reads the visible text of the page at a URL. */
export type PageTextReader = (url: string) => Promise<string>;

/**
 * Default page reader: GETs the URL over HTTP. The browser's session cookie is not available
 * here, so when the demo site redirects to its sign-in page the reader signs in itself (`POST
 * /login` with the task's credentials) and retries once with the session cookie.
 */
export function createPageTextReader(
  credentials: { username: string; password: string },
  fetchImpl: typeof fetch = fetch,
): PageTextReader {
  return async function readPageText(url) {
    let response = await fetchImpl(url, { redirect: 'manual' });
    if (response.status >= 300 && response.status < 400) {
      const login = await fetchImpl(new URL('/login', url), {
        method: 'POST',
        body: new URLSearchParams({
          username: credentials.username,
          password: credentials.password,
        }),
        redirect: 'manual',
      });
      const cookie = login.headers.get('set-cookie')?.split(';')[0];
      response = await fetchImpl(url, {
        redirect: 'manual',
        ...(cookie === undefined ? {} : { headers: { cookie } }),
      });
    }
    if (!response.ok) throw new Error(`reading ${url} answered ${response.status}`);
    return htmlToText(await response.text());
  };
}
