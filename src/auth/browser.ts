// Opens the system browser on the sign-in URL. Failures are ignored on purpose: the
// URL is always printed as well. $BROWSER (a command) wins over the platform opener.
import { spawn } from 'node:child_process';

/** The opener's environment: no METERDATA_* variable (client secret, access token, …) reaches the browser. */
export function browserEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([k]) => !/^METERDATA_/i.test(k)));
}

export function openBrowser(url: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): void {
  let cmd: string;
  let args: string[];
  if (env.BROWSER) {
    cmd = env.BROWSER;
    args = [url];
  } else if (platform === 'darwin') {
    cmd = 'open';
    args = [url];
  } else if (platform === 'win32') {
    cmd = 'cmd';
    args = ['/c', 'start', '""', url.replace(/&/g, '^&')];
  } else {
    cmd = 'xdg-open';
    args = [url];
  }
  try {
    const child = spawn(cmd, args, { detached: true, stdio: 'ignore', env: browserEnv(env) });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // printed URL is the fallback
  }
}
