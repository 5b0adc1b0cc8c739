import type { IncomingMessage, ServerResponse } from 'node:http';

// The session store's token (CONSOLE_SESSIONS) lives beside it in src/infra/console.
export const CONSOLE_SIGN_IN = Symbol('CONSOLE_SIGN_IN'); // ConsoleSignIn (optional)

/** Sends the browser to Gitea; on return a console session is created (see console.module.ts). */
export interface ConsoleSignIn {
  start(req: IncomingMessage, res: ServerResponse): Promise<void>;
}
