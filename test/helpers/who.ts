// The /whoami answer of the sandbox's first tenant, for tests that open the export's journal without a server.
export const NORDLICHT_WHO = {
  tenant_id: '7c1d8f2e-0000-4000-8000-000000000001',
  tenant_name: 'Hausverwaltung Nordlicht GmbH',
  client_id: 'c',
  granted_scopes: [],
  property_scope: 'all' as const,
};
