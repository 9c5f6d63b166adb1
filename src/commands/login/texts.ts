// What `meterdata login --help` says about the command and its flags (declared in index.ts).
import { catalogue } from '../../i18n/index.js';

export const helpTexts = catalogue(
  'cli-help-login',
  {
    login: 'sign in to a landlord connection (OAuth 2.1 + PKCE in the browser)',
    env: 'preset for the service URLs',
    authUrl: 'authorization server (issuer) URL, for any other server such as a local sandbox',
    baseUrl: 'API base URL including /v1',
    clientId: 'OAuth client id (default for the sandbox: sandbox-demo-client)',
    clientAuth: 'client authentication',
    clientSecretStdin: 'read the client secret from standard input (never pass it as an argument)',
    privateKey: 'private key for private_key_jwt (PEM or JWK)',
    kid: 'key id registered for --private-key',
    alg: 'signing algorithm for private_key_jwt',
    dpop: 'bind tokens to a per-connection key (DPoP, RFC 9449)',
    scope: 'space-separated scopes (default: read:units read:devices read:readings)',
    noBrowser: 'do not open a browser; print the URL and accept the redirected URL pasted on stdin',
    credentialStore: 'where the refresh token is kept',
  },
  {
    login: 'bei einer Verbindung zu einem Eigentümer anmelden (OAuth 2.1 + PKCE im Browser)',
    env: 'Voreinstellung für die Adressen des Dienstes',
    authUrl: 'Adresse des Anmeldeservers (Issuer), für jeden anderen Server, etwa eine lokale Sandbox',
    baseUrl: 'Basisadresse der API einschließlich /v1',
    clientId: 'OAuth-Client-ID (Vorgabe für die Sandbox: sandbox-demo-client)',
    clientAuth: 'Authentifizierung des Clients',
    clientSecretStdin: 'Client-Secret von der Standardeingabe lesen (nie als Argument übergeben)',
    privateKey: 'privater Schlüssel für private_key_jwt (PEM oder JWK)',
    kid: 'Schlüssel-ID, registriert für --private-key',
    alg: 'Signaturverfahren für private_key_jwt',
    dpop: 'Tokens an einen Schlüssel je Verbindung binden (DPoP, RFC 9449)',
    scope: 'Berechtigungen, durch Leerzeichen getrennt (Vorgabe: read:units read:devices read:readings)',
    noBrowser: 'keinen Browser öffnen; die Adresse ausgeben und die weitergeleitete Adresse über die Standardeingabe annehmen',
    credentialStore: 'wo das Refresh-Token aufbewahrt wird',
  },
);
