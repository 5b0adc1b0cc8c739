// Injection token of the console's session store (src/infra/console).
export const CONSOLE_SESSIONS = Symbol('CONSOLE_SESSIONS'); // ConsoleSessionStore (table console_sessions)
