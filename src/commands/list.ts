// The commands, in the order `meterdata --help` lists them. A new command is a folder
// src/commands/<verb>/ (index.ts declaring it, run.ts its handler, texts.ts its help in
// English and German) and one line here.
import { browse } from './browse/index.js';
import { completion } from './completion/index.js';
import type { AnyCommand } from './define.js';
import { demo } from './demo/index.js';
import { exportCommand } from './export/index.js';
import { login } from './login/index.js';
import { logout } from './logout/index.js';
import { sandbox } from './sandbox/index.js';
import { status } from './status/index.js';
import { token } from './token/index.js';
import { uvi } from './uvi/index.js';

export const COMMANDS: readonly AnyCommand[] = [login, logout, status, token, exportCommand, uvi, browse, sandbox, demo, completion];
