// Opens the system browser on the sign-in URL. Failures are ignored on purpose: the
// URL is always printed as well. $BROWSER (a command) wins over the platform opener.
import { spawn } from 'node:child_process';

/** The opener's environment: no METERDATA_* variable (client secret, access token, …) reaches the browser. */
export function browserEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([k]) => !/^METERDATA_/i.test(k)));
}

/**
 * The opener's program and argv: the URL is always one argument of its own, and no shell
 * reads it. On Windows that rules out `cmd /c start`, where a `&` or `|` in a URL from
 * the server would start a second command; url.dll's FileProtocolHandler opens the
 * default browser with the URL as given.
 */
export function openerCommand(url: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform): { cmd: string; args: string[] } {
  if (env.BROWSER) return { cmd: env.BROWSER, args: [url] };
  if (platform === 'darwin') return { cmd: 'open', args: [url] };
  if (platform === 'win32') return { cmd: 'rundll32', args: ['url.dll,FileProtocolHandler', url] };
  return { cmd: 'xdg-open', args: [url] };
}

export function openBrowser(url: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): void {
  const { cmd, args } = openerCommand(url, env, platform);
  try {
    const child = spawn(cmd, args, { detached: true, stdio: 'ignore', env: browserEnv(env), shell: false });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // printed URL is the fallback
  }
}
