// oidc-provider has no public hook between client authentication and the refresh_token grant;
// refresh.ts wraps the registered handler through the provider's internal instance store.
declare module 'oidc-provider/lib/helpers/weak_cache.js' {
  export default function instance(provider: object): { grantTypeHandlers: Map<string, (ctx: unknown) => Promise<void>> };
}
