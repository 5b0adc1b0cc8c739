// The console's sessions in PostgreSQL/PGlite (table console_sessions, migration
// 20261201125500_console_sessions), so any replica can answer a signed-in browser. Raw,
// parameterised SQL: the same code runs on adapter-pg and PGlite.
import {
  CONSOLE_SESSION_LIFETIME_MS,
  newSessionId,
  sessionKey,
  sessionState,
} from '../../core/console/console-session';

export type SessionDb = {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
};

export type ConsolePerson = { personId: string | null; login: string; isSiteAdmin: boolean };
export type ConsoleSessionView = ConsolePerson & { key: string; createdAt: number; expiresAt: number };

type Row = {
  key: string;
  person_id: string | null;
  login: string;
  is_site_admin: boolean | string;
  created_ms: string;
  seen_ms: string;
  expires_ms: string;
};

const ms = (column: string, as: string) => `(extract(epoch from ${column}) * 1000)::bigint::text AS ${as}`;

export class ConsoleSessionStore {
  constructor(
    private readonly db: SessionDb,
    private readonly now: () => number = Date.now,
  ) {}

  /** A new session for this person; returns the id for the cookie (only its hash is stored). */
  async create(person: ConsolePerson): Promise<{ id: string; expiresAt: number }> {
    const id = newSessionId();
    const now = this.now();
    const expiresAt = now + CONSOLE_SESSION_LIFETIME_MS;
    await this.db.$executeRawUnsafe(
      `INSERT INTO console_sessions (key, person_id, login, is_site_admin, created_at, last_seen_at, expires_at)
       VALUES ($1, $2, $3, $4, to_timestamp($5::double precision / 1000), to_timestamp($5::double precision / 1000),
               to_timestamp($6::double precision / 1000))`,
      sessionKey(id),
      person.personId,
      person.login,
      person.isSiteAdmin,
      now,
      expiresAt,
    );
    return { id, expiresAt };
  }

  /** The live session of this cookie id (an expired or idle one is deleted), or null. */
  async find(id: string): Promise<ConsoleSessionView | null> {
    const key = sessionKey(id);
    const rows = await this.db.$queryRawUnsafe<Row[]>(
      `SELECT key, person_id, login, is_site_admin, ${ms('created_at', 'created_ms')},
              ${ms('last_seen_at', 'seen_ms')}, ${ms('expires_at', 'expires_ms')}
       FROM console_sessions WHERE key = $1`,
      key,
    );
    const row = rows[0];
    if (!row) return null;
    const now = this.now();
    const state = sessionState(
      {
        createdAt: Number(row.created_ms),
        lastSeenAt: Number(row.seen_ms),
        expiresAt: Number(row.expires_ms),
      },
      now,
    );
    if (!state.live) {
      await this.db.$executeRawUnsafe('DELETE FROM console_sessions WHERE key = $1', key);
      return null;
    }
    if (state.touch)
      await this.db.$executeRawUnsafe(
        'UPDATE console_sessions SET last_seen_at = to_timestamp($2::double precision / 1000) WHERE key = $1',
        key,
        now,
      );
    return {
      key,
      personId: row.person_id,
      login: row.login,
      isSiteAdmin: row.is_site_admin === true || row.is_site_admin === 't',
      createdAt: Number(row.created_ms),
      expiresAt: Number(row.expires_ms),
    };
  }

  async end(id: string): Promise<void> {
    await this.db.$executeRawUnsafe('DELETE FROM console_sessions WHERE key = $1', sessionKey(id));
  }

  /** Every session of a person (their Gitea grant was revoked, they were suspended). */
  async endAllFor(personId: string): Promise<number> {
    return this.db.$executeRawUnsafe('DELETE FROM console_sessions WHERE person_id = $1', personId);
  }

  /** Drops sessions past their lifetime (others are dropped when next seen). */
  async prune(): Promise<number> {
    return this.db.$executeRawUnsafe(
      'DELETE FROM console_sessions WHERE expires_at <= to_timestamp($1::double precision / 1000)',
      this.now(),
    );
  }
}
