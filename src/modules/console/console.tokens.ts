import type { IncomingMessage, ServerResponse } from 'node:http';

export const CONSOLE_SESSIONS = Symbol('CONSOLE_SESSIONS'); // ConsoleSessionStore
export const CONSOLE_SIGN_IN = Symbol('CONSOLE_SIGN_IN'); // ConsoleSignIn (optional)

/** Sends the browser to Gitea; on return a console session is created (see console.module.ts). */
export interface ConsoleSignIn {
  start(req: IncomingMessage, res: ServerResponse): Promise<void>;
}
