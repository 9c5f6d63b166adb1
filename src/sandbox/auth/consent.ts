// The consent screen: the demo landlord is already signed in; they pick the customer
// organisation and all Properties (pre-selected) or a selection, then approve or decline.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { Directory } from '../contracts.js';
import { SCOPES } from '../clients.js';
import { readForm } from './body.js';
import { esc, page } from './pages.js';
import type { ConnectionRegistry } from './registry.js';

export const DEMO_LANDLORD = 'demo-landlord';
const SCOPE_TEXT: Record<string, string> = {
  'read:units': 'Properties, usage units, addresses and structural data',
  'read:devices': 'measuring points and device lifecycle',
  'read:readings': 'meter readings and consumption',
};

export interface ConsentDeps {
  provider: Provider;
  directory: Directory;
  registry: ConnectionRegistry;
  resource: string;
  autoConsent: boolean;
  /** The tenant id a client's auto-consent picks (clients file `auto_consent_tenant`); none: the first enabled one. */
  autoConsentTenant?(clientId: string): string | undefined;
  /** Scopes a client is registered for. */
  allowedScopes(clientId: string): string[];
}

function send(res: ServerResponse, status: number, html: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.end(html);
}

interface Request {
  uid: string;
  clientId: string;
  clientName: string;
  scopes: string[];
  resource: string;
  notPermitted: string[];
}

function noticePage(clientName: string): string {
  return page(
    'API access not enabled',
    `<h1>Connect ${esc(clientName)}</h1>
<div class="notice" id="access-not-enabled" role="alert"><p>API access is not enabled for your customer organisation.</p>
<p>Ask your metering service provider to enable API access, then start the connection again from ${esc(clientName)}.</p></div>`,
  );
}

function consentPage(r: Request, tenants: { id: string; name: string }[], directory: Directory, problem?: string): string {
  const tenantField =
    tenants.length > 1
      ? `<label for="tenant">Customer organisation</label>
<select id="tenant" name="tenant">${tenants.map((t) => `<option value="${esc(t.id)}">${esc(t.name)}</option>`).join('')}</select>`
      : `<input type="hidden" name="tenant" value="${esc(tenants[0]!.id)}"><p>Customer organisation: <strong>${esc(tenants[0]!.name)}</strong></p>`;
  const properties = tenants
    .map(
      (t) => `<fieldset class="properties" data-tenant="${esc(t.id)}"><legend>${esc(t.name)}</legend>
${directory
  .propertiesOf(t.id)
  .map((p) => `<label><input type="checkbox" name="property" value="${esc(p.id)}" data-tenant="${esc(t.id)}"> ${esc(p.name)}</label><br>`)
  .join('\n')}</fieldset>`,
    )
    .join('\n');
  return page(
    `Connect ${r.clientName}`,
    `<h1>Connect ${esc(r.clientName)}</h1>
<p>Signed in as <strong>Demo landlord</strong>. <em>${esc(r.clientName)}</em> asks for read-only access to:</p>
<ul id="scopes">${r.scopes.map((s) => `<li data-scope="${esc(s)}">${esc(SCOPE_TEXT[s] ?? s)}</li>`).join('')}</ul>
${problem ? `<p class="error" id="consent-error" role="alert">${esc(problem)}</p>` : ''}
<form method="post" action="/interaction/${esc(r.uid)}" id="consent-form">
${tenantField}
<fieldset><legend>Which Properties?</legend>
<label><input type="radio" name="scope_mode" value="all" id="scope-all" checked> All Properties, including future ones</label><br>
<label><input type="radio" name="scope_mode" value="selection" id="scope-selection"> Only the selected Properties:</label>
${properties}
</fieldset>
<button type="submit" name="decision" value="approve" id="approve">Approve</button>
<button type="submit" name="decision" value="decline" id="decline">Decline</button>
</form>`,
  );
}

export function createConsentHandler(deps: ConsentDeps) {
  const { provider, directory, registry } = deps;
  const enabledTenants = () => directory.tenants().filter((t) => registry.tenantAccessEnabled(t.id));

  async function describe(req: IncomingMessage, res: ServerResponse): Promise<Request> {
    const details = await provider.interactionDetails(req, res);
    const params = details.params as Record<string, string | undefined>;
    const client = await provider.Client.find(String(params.client_id));
    const clientId = String(params.client_id);
    const allowed = deps.allowedScopes(clientId);
    const asked = (params.scope ?? '').split(' ').filter(Boolean);
    return {
      uid: details.uid,
      clientId,
      clientName: client?.clientName ?? clientId,
      // Unknown scopes are dropped (as oidc-provider does); known ones the client is not
      // registered for make the request fail. (No scope at all was expanded in index.ts.)
      scopes: asked.filter((x) => allowed.includes(x)),
      notPermitted: asked.filter((x) => (SCOPES as readonly string[]).includes(x) && !allowed.includes(x)),
      resource: params.resource ?? deps.resource,
    };
  }

  async function approve(req: IncomingMessage, res: ServerResponse, r: Request, tenantId: string, propertyScope: 'all' | string[]) {
    const tenant = directory.tenants().find((t) => t.id === tenantId)!;
    const grant = new provider.Grant({ accountId: DEMO_LANDLORD, clientId: r.clientId });
    grant.addResourceScope(r.resource, r.scopes.join(' '));
    const sid = await grant.save();
    registry.add({
      sid,
      client_id: r.clientId,
      tenant_id: tenant.id,
      tenant_name: tenant.name,
      property_scope: propertyScope,
      scopes: r.scopes,
      resource: r.resource,
    });
    await provider.interactionFinished(req, res, { login: { accountId: DEMO_LANDLORD }, consent: { grantId: sid } }, { mergeWithLastSubmission: false });
  }

  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let r: Request;
    try {
      r = await describe(req, res);
    } catch {
      send(res, 400, page('Sign-in expired', '<h1 id="error-title">This sign-in link has expired</h1><p>Start the connection again from the application.</p>'));
      return;
    }
    const tenants = enabledTenants();
    if (tenants.length === 0) return send(res, 200, noticePage(r.clientName));
    if (r.scopes.length === 0 || r.notPermitted.length) {
      const error_description = `${r.notPermitted.length ? `scope ${r.notPermitted.join(' ')} is not permitted for this client` : 'none of the requested scopes is available'}; registered: ${deps.allowedScopes(r.clientId).join(' ')}`;
      return void (await provider.interactionFinished(req, res, { error: 'invalid_scope', error_description }, { mergeWithLastSubmission: false }));
    }
    if (req.method === 'GET') {
      if (deps.autoConsent) {
        const wanted = deps.autoConsentTenant?.(r.clientId);
        const tenant = wanted === undefined ? tenants[0] : tenants.find((t) => t.id === wanted);
        // The client's own landlord has no API access (ended): no code, as for a person.
        return tenant ? approve(req, res, r, tenant.id, 'all') : send(res, 200, noticePage(r.clientName));
      }
      return send(res, 200, consentPage(r, tenants, directory));
    }
    if (req.method !== 'POST') return send(res, 405, page('Not allowed', '<h1>Method not allowed</h1>'));
    const form = await readForm(req);
    if (form.get('decision') === 'decline') {
      await provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'The landlord declined the request.' },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    const tenant = tenants.find((t) => t.id === (form.get('tenant') ?? tenants[0]!.id));
    if (!tenant) return send(res, 200, noticePage(r.clientName));
    if (form.get('scope_mode') !== 'selection') return approve(req, res, r, tenant.id, 'all');
    const own = new Set(directory.propertiesOf(tenant.id).map((p) => p.id));
    const chosen = [...new Set(form.getAll('property'))].filter((id) => own.has(id));
    if (chosen.length === 0)
      return send(res, 200, consentPage(r, tenants, directory, `Select at least one Property of ${tenant.name}, or choose all Properties.`));
    return approve(req, res, r, tenant.id, chosen);
  };
}
