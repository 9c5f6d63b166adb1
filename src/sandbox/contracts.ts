// Seams between the sandbox's parts, so the authorization server, the API routes
// and the data generator can be built and tested apart and composed in server.ts.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Injectable, advanceable time. Every part of the sandbox reads time through it. */
export interface Clock {
  now(): Date;
}

/** What a valid access token for the REST API says about its caller. */
export interface TokenInfo {
  /** The connection (grant) id: the unit rate limits are counted per. */
  sid: string;
  client_id: string;
  tenant_id: string;
  scopes: string[];
  property_scope: 'all' | string[];
  /** Seconds since epoch. */
  expires_at: number;
}

/** Outcome of checking the Authorization (and DPoP) headers of an API request. */
export type TokenCheck =
  | { ok: true; token: TokenInfo }
  /** error: value for WWW-Authenticate's error=, e.g. invalid_token or invalid_dpop_proof. */
  | { ok: false; error: 'invalid_token' | 'invalid_dpop_proof'; description: string; scheme: 'Bearer' | 'DPoP' };

export interface TokenValidator {
  /**
   * @param publicUrl the URL the client called, without query (DPoP htu).
   */
  validate(req: IncomingMessage, publicUrl: string): Promise<TokenCheck>;
  /** Whether API access of this tenant (customer organisation) is enabled right now. */
  tenantAccessEnabled(tenantId: string): boolean;
}

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/** What the authorization server needs to know of the synthetic data (consent page, whitelist). */
export interface Directory {
  /** Customer organisations (Tenants), in a stable order. */
  tenants(): { id: string; name: string }[];
  /** Properties of a tenant, in a stable order. */
  propertiesOf(tenantId: string): { id: string; name: string }[];
}
