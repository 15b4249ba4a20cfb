// The page desktop-task e2e tests type into: an autofocused input filling the viewport; Enter
// submits it to /submitted, whose text the test awaits.

/** A page whose autofocused input fills the viewport; Enter submits it to /submitted. */
export function formSite() {
  const submitted: string[] = [];
  let arrived: (text: string) => void = () => undefined;
  const submission = new Promise<string>((resolve) => {
    arrived = resolve;
  });
  const html = (title: string, body: string) =>
    new Response(`<!doctype html><title>${title}</title>${body}`, {
      headers: { 'content-type': 'text/html' },
    });
  const fetch = (request: Request) => {
    const url = new URL(request.url);
    if (url.pathname === '/submitted') {
      const text = url.searchParams.get('text') ?? '';
      submitted.push(text);
      arrived(text);
      return html('Received', `<h1>Received: ${text.replace(/[<&]/g, '')}</h1>`);
    }
    if (url.pathname !== '/') return new Response('not found', { status: 404 });
    return html(
      'Desktop form',
      '<form action="/submitted"><input name="text" autofocus autocomplete="off" style="position:fixed;inset:0;width:100%;height:100%;box-sizing:border-box;font-size:40px"></form>',
    );
  };
  return { fetch, submitted, submission };
}
