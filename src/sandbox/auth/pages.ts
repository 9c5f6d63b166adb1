// Server-rendered HTML of the authorization server (consent, notice, error pages).

export function esc(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;line-height:1.4}
fieldset{margin:1rem 0}.notice{background:#fff4d6;border:1px solid #e0b400;padding:1rem}.error{color:#a00}
button{font-size:1rem;padding:.4rem 1rem;margin-right:.5rem}</style></head>
<body><p><small>Metering Data Partner API sandbox (synthetic data)</small></p>${body}</body></html>`;
}

/** Browsers (Accept naming text/html) get a page; API callers get 400 JSON. Never a redirect. */
export function wantsHtml(accept: string | undefined): boolean {
  return /\btext\/html\b/i.test(accept ?? '');
}

interface KoaLike {
  get(h: string): string;
  status: number;
  type: string;
  body: unknown;
}

export function renderOAuthError(ctx: KoaLike, out: { error: string; error_description?: string }): void {
  ctx.status = ctx.status >= 500 ? ctx.status : 400;
  if (wantsHtml(ctx.get('accept'))) {
    ctx.type = 'html';
    ctx.body = page(
      'Cannot continue',
      `<h1 id="error-title">This request cannot continue</h1>
<p id="error-code">${esc(out.error)}</p><p id="error-description">${esc(out.error_description ?? '')}</p>
<p>Nothing was shared. Ask the application's provider to check its registration.</p>`,
    );
  } else {
    ctx.type = 'application/json';
    ctx.body = { error: out.error, error_description: out.error_description ?? out.error };
  }
}
