// The commands a message names for a profile, as a person types them, and the error of a profile not signed in.
import { NotSignedInError } from '../core/errors.js';
import { ts } from './texts-session.js';

/** `meterdata login` for `profile`, as a person types it. */
export function loginCommand(profile: string): string {
  return `meterdata login${profile !== 'default' ? ` --profile ${profile}` : ''}`;
}

export function statusCommand(profile: string): string {
  return `meterdata status${profile !== 'default' ? ` --profile ${profile}` : ''}`;
}

export function loginHint(profile: string): string {
  return ts.runLogin({ login: loginCommand(profile) });
}

export function notSignedIn(profile: string): NotSignedInError {
  return new NotSignedInError(ts.notSignedIn({ profile }), { code: 'AUTH_NOT_SIGNED_IN', hint: loginHint(profile) });
}
