// People and their Gitea grants in PostgreSQL/PGlite through Prisma. Rows hold only ciphertexts
// of the Gitea tokens (the core's GrantCipher makes them); a revoked grant keeps none.
import type { PrismaClient } from '../../generated/prisma/client';
import type {
  GiteaAccount,
  GiteaGrantRepository,
  GrantRecord,
  PersonRecord,
  RevocationReason,
  SealedTokens,
} from '../../core/gitea-oauth/grant-service';
import type { GiteaAccess } from '../../core/gitea-oauth/gitea-scopes';

type PersonRow = { id: string; giteaUserId: bigint; login: string; isSiteAdmin: boolean };
// A grant as Prisma returns it: the record's fields, with access, scopes and status as stored text.
type GrantRow = Omit<GrantRecord, 'access' | 'scopes' | 'status'> & {
  access: string;
  scopes: string;
  status: string;
};

const toPerson = (row: PersonRow): PersonRecord => ({
  id: row.id,
  giteaUserId: Number(row.giteaUserId),
  login: row.login,
  isSiteAdmin: row.isSiteAdmin,
});

const toGrant = (row: GrantRow): GrantRecord => ({
  id: row.id,
  personId: row.personId,
  access: row.access === 'write' ? 'write' : 'read',
  scopes: row.scopes.split(' ').filter(Boolean),
  status: row.status === 'active' ? 'active' : 'revoked',
  keyId: row.keyId,
  accessTokenEnc: row.accessTokenEnc,
  refreshTokenEnc: row.refreshTokenEnc,
  accessExpiresAt: row.accessExpiresAt,
  updatedAt: row.updatedAt,
  refreshLeaseUntil: row.refreshLeaseUntil,
  revokedReason: row.revokedReason,
  checkedAt: row.checkedAt,
  lastUsedAt: row.lastUsedAt,
  firstUsedAt: row.firstUsedAt,
  createdAt: row.createdAt,
});

// The database stamps updated_at at millisecond precision; so do we, so comparisons hold.
const ms = (d: Date): Date => new Date(Math.floor(d.getTime()));

export class PrismaGiteaGrantRepository implements GiteaGrantRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async saveSignIn(input: {
    account: GiteaAccount;
    newPersonId: string;
    newGrantId: string;
    access: GiteaAccess;
    scopes: string[];
    seal: (grantId: string) => SealedTokens;
    now: Date;
  }): Promise<{ person: PersonRecord; grant: GrantRecord }> {
    const now = ms(input.now);
    return this.prisma.$transaction(async (tx) => {
      const person = await tx.person.upsert({
        where: { giteaUserId: BigInt(input.account.id) },
        create: {
          id: input.newPersonId,
          giteaUserId: BigInt(input.account.id),
          login: input.account.login,
          isSiteAdmin: input.account.isSiteAdmin,
          createdAt: now,
          lastSignInAt: now,
        },
        update: { login: input.account.login, isSiteAdmin: input.account.isSiteAdmin, lastSignInAt: now },
      });
      const existing = await tx.giteaGrant.findUnique({ where: { personId: person.id } });
      // A new sign-in replaces the tokens; the grant id (bound into the ciphertexts) stays.
      const grantId = existing?.id ?? input.newGrantId;
      const sealed = input.seal(grantId);
      const fields = {
        access: input.access,
        scopes: input.scopes.join(' '),
        status: 'active',
        keyId: sealed.keyId,
        accessTokenEnc: sealed.accessTokenEnc,
        refreshTokenEnc: sealed.refreshTokenEnc,
        accessExpiresAt: ms(sealed.accessExpiresAt),
        updatedAt: now,
        refreshedAt: null,
        checkedAt: now,
        refreshLeaseUntil: null,
        revokedAt: null,
        revokedReason: null,
      };
      const grant = existing
        ? await tx.giteaGrant.update({ where: { id: grantId }, data: fields })
        : await tx.giteaGrant.create({
            data: { id: grantId, personId: person.id, createdAt: now, ...fields },
          });
      return { person: toPerson(person), grant: toGrant(grant) };
    });
  }

  async findPerson(personId: string): Promise<PersonRecord | null> {
    const row = await this.prisma.person.findUnique({ where: { id: personId } });
    return row ? toPerson(row) : null;
  }

  async findPersonByGiteaUserId(giteaUserId: number): Promise<PersonRecord | null> {
    const row = await this.prisma.person.findUnique({ where: { giteaUserId: BigInt(giteaUserId) } });
    return row ? toPerson(row) : null;
  }

  async findGrant(personId: string): Promise<GrantRecord | null> {
    const row = await this.prisma.giteaGrant.findUnique({ where: { personId } });
    return row ? toGrant(row) : null;
  }

  async findGrantById(grantId: string): Promise<GrantRecord | null> {
    const row = await this.prisma.giteaGrant.findUnique({ where: { id: grantId } });
    return row ? toGrant(row) : null;
  }

  async acquireRefreshLease(grantId: string, now: Date, until: Date): Promise<boolean> {
    const result = await this.prisma.giteaGrant.updateMany({
      where: {
        id: grantId,
        status: 'active',
        OR: [{ refreshLeaseUntil: null }, { refreshLeaseUntil: { lt: ms(now) } }],
      },
      data: { refreshLeaseUntil: ms(until) },
    });
    return result.count === 1;
  }

  async releaseRefreshLease(grantId: string): Promise<void> {
    await this.prisma.giteaGrant.updateMany({ where: { id: grantId }, data: { refreshLeaseUntil: null } });
  }

  async storeTokens(grantId: string, sealed: SealedTokens, now: Date): Promise<boolean> {
    const result = await this.prisma.giteaGrant.updateMany({
      where: { id: grantId, status: 'active' },
      data: {
        keyId: sealed.keyId,
        accessTokenEnc: sealed.accessTokenEnc,
        refreshTokenEnc: sealed.refreshTokenEnc,
        accessExpiresAt: ms(sealed.accessExpiresAt),
        refreshedAt: ms(now),
        updatedAt: ms(now),
        refreshLeaseUntil: null,
      },
    });
    return result.count === 1;
  }

  async replaceCiphertexts(
    grantId: string,
    expectedKeyId: string,
    sealed: Omit<SealedTokens, 'accessExpiresAt'>,
  ): Promise<boolean> {
    const result = await this.prisma.giteaGrant.updateMany({
      where: { id: grantId, status: 'active', keyId: expectedKeyId },
      data: {
        keyId: sealed.keyId,
        accessTokenEnc: sealed.accessTokenEnc,
        refreshTokenEnc: sealed.refreshTokenEnc,
      },
    });
    return result.count === 1;
  }

  async revoke(personId: string, reason: RevocationReason, now: Date): Promise<boolean> {
    const result = await this.prisma.giteaGrant.updateMany({
      where: { personId, status: 'active' },
      data: {
        status: 'revoked',
        revokedAt: ms(now),
        revokedReason: reason,
        updatedAt: ms(now),
        keyId: null,
        accessTokenEnc: null,
        refreshTokenEnc: null,
        accessExpiresAt: null,
        refreshLeaseUntil: null,
      },
    });
    return result.count > 0;
  }

  async markChecked(grantId: string, now: Date, account: GiteaAccount): Promise<void> {
    const grant = await this.prisma.giteaGrant.update({
      where: { id: grantId },
      data: { checkedAt: ms(now) },
      select: { personId: true },
    });
    // Gitea logins can be renamed and admin rights change: keep the person in step.
    await this.prisma.person.updateMany({
      where: { id: grant.personId, giteaUserId: BigInt(account.id) },
      data: { login: account.login, isSiteAdmin: account.isSiteAdmin },
    });
  }

  /** Last use always; first use only while it is still empty (set once, kept across sign-ins). */
  async touch(grantId: string, now: Date): Promise<void> {
    await this.prisma.giteaGrant.updateMany({
      where: { id: grantId, firstUsedAt: null },
      data: { firstUsedAt: ms(now) },
    });
    await this.prisma.giteaGrant.updateMany({ where: { id: grantId }, data: { lastUsedAt: ms(now) } });
  }

  async listActive(options: {
    afterId: string | null;
    limit: number;
    expiringBefore?: Date;
  }): Promise<GrantRecord[]> {
    const rows = await this.prisma.giteaGrant.findMany({
      where: {
        status: 'active',
        ...(options.afterId ? { id: { gt: options.afterId } } : {}),
        ...(options.expiringBefore ? { accessExpiresAt: { lt: ms(options.expiringBefore) } } : {}),
      },
      orderBy: { id: 'asc' },
      take: options.limit,
    });
    return rows.map(toGrant);
  }

  async listWithStaleKey(currentKeyId: string, limit: number): Promise<GrantRecord[]> {
    const rows = await this.prisma.giteaGrant.findMany({
      where: { status: 'active', NOT: { keyId: currentKeyId } },
      orderBy: { id: 'asc' },
      take: limit,
    });
    return rows.map(toGrant);
  }
}
