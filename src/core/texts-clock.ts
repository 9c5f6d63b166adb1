// What meterdata says when this computer's clock is too far off the service's for a DPoP proof.
import { catalogue } from '../i18n/index.js';

export const clockTexts = catalogue(
  'core-clock',
  {
    seconds: (p: { n: number }) => `${p.n} seconds`,
    minutes: (p: { n: number }) => `${p.n} minutes`,
    hours: (p: { n: number }) => `${p.n} hours`,
    ahead: (p: { off: string; tolerance: number }) =>
      `The service refused this computer's DPoP proof because the computer's clock is ${p.off} ahead of the service's (a proof counts for ${p.tolerance} seconds).`,
    behind: (p: { off: string; tolerance: number }) =>
      `The service refused this computer's DPoP proof because the computer's clock is ${p.off} behind the service's (a proof counts for ${p.tolerance} seconds).`,
    skewedHint:
      "Set the computer's clock right (turn on automatic time setting), then run the same command again; the sign-in stays valid and need not be renewed.",
    clockUnknownHint: (p: { login: string; tolerance: number }) =>
      `The answer did not give the service's time, so this computer's clock may be the cause: check it (a proof counts for ${p.tolerance} seconds) and run the same command again; only if the clock is right, sign in again with \`${p.login}\`.`,
    clockRightHint: (p: { login: string }) =>
      `This computer's clock agrees with the service's, so the proof was refused for another reason: run \`${p.login}\` to connect again.`,
  },
  {
    seconds: (p) => `${p.n} Sekunden`,
    minutes: (p) => `${p.n} Minuten`,
    hours: (p) => `${p.n} Stunden`,
    ahead: (p) =>
      `Der Messdienst hat den DPoP-Nachweis abgelehnt, weil die Uhr dieses Computers ${p.off} gegenüber der Uhr des Messdienstes vorgeht (ein Nachweis gilt ${p.tolerance} Sekunden).`,
    behind: (p) =>
      `Der Messdienst hat den DPoP-Nachweis abgelehnt, weil die Uhr dieses Computers ${p.off} gegenüber der Uhr des Messdienstes nachgeht (ein Nachweis gilt ${p.tolerance} Sekunden).`,
    skewedHint:
      'Bitte die Uhrzeit des Computers richtig stellen (automatische Zeiteinstellung einschalten) und den Befehl dann erneut ausführen; die Anmeldung bleibt gültig und muss nicht erneuert werden.',
    clockUnknownHint: (p) =>
      `Die Antwort nennt die Uhrzeit des Messdienstes nicht, daher kann die Uhr dieses Computers die Ursache sein: Bitte die Uhrzeit prüfen (ein Nachweis gilt ${p.tolerance} Sekunden) und den Befehl erneut ausführen; nur wenn die Uhr richtig geht, mit \`${p.login}\` neu anmelden.`,
    clockRightHint: (p) =>
      `Die Uhr dieses Computers stimmt mit der des Messdienstes überein, der Nachweis wurde also aus einem anderen Grund abgelehnt: Bitte \`${p.login}\` ausführen, um die Verbindung neu herzustellen.`,
  },
);
