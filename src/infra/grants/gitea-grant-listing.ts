// Read-only listing of the Gitea grants this service holds (table gitea_grants, with the
// person's login), for the admin API's connections and grants pages. Never selects the token
// columns. Revoking goes through the grant service (core), which also tells its listeners.
import type { PrismaClient } from '../../generated/prisma/client';

export type GiteaGrantListing = {
  grantId: string;
  personId: string;
  login: string;
  access: string;
  scopes: string[];
  status: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  firstUsedAt: Date | null;
  revokedAt: Date | null;
  revokedReason: string | null;
};

export type GrantListingDb = Pick<PrismaClient, 'giteaGrant' | 'person'>;

export class GiteaGrantListingRepository {
  constructor(private readonly prisma: GrantListingDb) {}

  async list(filter: {
    personId?: string;
    login?: string;
    status?: 'active' | 'revoked';
    limit: number;
  }): Promise<GiteaGrantListing[]> {
    const rows = await this.prisma.giteaGrant.findMany({
      where: {
        ...(filter.personId ? { personId: filter.personId } : {}),
        ...(filter.status ? { status: filter.status } : {}),
        ...(filter.login ? { person: { login: { equals: filter.login, mode: 'insensitive' } } } : {}),
      },
      select: {
        id: true,
        personId: true,
        access: true,
        scopes: true,
        status: true,
        createdAt: true,
        lastUsedAt: true,
        firstUsedAt: true,
        revokedAt: true,
        revokedReason: true,
        person: { select: { login: true } },
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
      take: filter.limit,
    });
    return rows.map((r) => ({
      grantId: r.id,
      personId: r.personId,
      login: r.person.login,
      access: r.access,
      scopes: r.scopes.split(' ').filter(Boolean),
      status: r.status,
      createdAt: r.createdAt,
      lastUsedAt: r.lastUsedAt,
      firstUsedAt: r.firstUsedAt,
      revokedAt: r.revokedAt,
      revokedReason: r.revokedReason,
    }));
  }

  async byId(grantId: string): Promise<{ grantId: string; personId: string; login: string } | null> {
    const row = await this.prisma.giteaGrant.findUnique({
      where: { id: grantId },
      select: { id: true, personId: true, person: { select: { login: true } } },
    });
    return row ? { grantId: row.id, personId: row.personId, login: row.person.login } : null;
  }

  /** The person of a login (case-insensitive), for credentials that carry no person id. */
  async personIdOf(login: string): Promise<string | null> {
    const row = await this.prisma.person.findFirst({
      where: { login: { equals: login, mode: 'insensitive' } },
      select: { id: true },
      orderBy: { lastSignInAt: 'desc' },
    });
    return row?.id ?? null;
  }
}
