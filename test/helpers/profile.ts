// A profile of a file-store sign-in at a closed port: for tests of config.json and the credential store.
import type { Profile } from '../../src/core/config.js';

export const aProfile = (name: string): Profile => ({
  name,
  auth_url: 'http://127.0.0.1:9',
  base_url: 'http://127.0.0.1:9/v1',
  resource: 'http://127.0.0.1:9',
  client_id: 'sandbox-demo-client',
  client_auth: 'none',
  dpop: false,
  scopes: ['read:units'],
  credential_store: 'file',
});
