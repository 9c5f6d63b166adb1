// The seam between sign-in (src/auth) and the API helper (src/api): the helper asks
// for the headers of each request and, after a 401 invalid-token, for one refresh.

export interface Credentials {
  /**
   * Headers that authorise one request: `Authorization` (Bearer or DPoP) and, for a
   * DPoP-bound connection, a fresh `DPoP` proof for exactly this method and URL
   * (the proof's htu is the URL without query). Refreshes first when the access
   * token is about to expire.
   */
  headersFor(method: string, url: string): Promise<Record<string, string>>;
  /**
   * Called after a 401 invalid-token answer to a request made with `rejectedToken`.
   * Refreshes once (single-flight: concurrent callers share one refresh, and a
   * caller whose token was already replaced does not refresh again).
   * Throws NotSignedInError when the connection has ended.
   */
  refreshAfterRejection(rejectedToken: string): Promise<void>;
  /** The access token the next request would use (for refreshAfterRejection bookkeeping). */
  currentToken(): Promise<string>;
}

/** Credentials from METERDATA_ACCESS_TOKEN or a test: a fixed token, never refreshed. */
export function staticCredentials(accessToken: string): Credentials {
  return {
    async headersFor() {
      return { authorization: `Bearer ${accessToken}` };
    },
    async refreshAfterRejection() {
      const [{ NotSignedInError }, { coreTexts: t }] = await Promise.all([import('./errors.js'), import('./texts.js')]);
      throw new NotSignedInError(t.staticTokenRejected, { code: 'AUTH_STATIC_TOKEN_REJECTED', hint: t.staticTokenHint });
    },
    async currentToken() {
      return accessToken;
    },
  };
}
