// Prisma-backed state of the MCP authorization server. Single-use steps (a code redeemed, a refresh
// token rotated, a Gitea `state` taken) are conditional updates, so two replicas racing for the
// same value cannot both win. Revocations write a tombstone in the same transaction.
import type { PrismaClient } from '../../generated/prisma/client';

export type ClientRow = {
  id: string;
  kind: 'cimd' | 'dcr';
  name: string;
  redirectUris: string[];
  applicationType: string;
  clientUri: string | null;
  /** "none" (public) or the confidential method it registered with. */
  tokenEndpointAuthMethod: string;
  /** SHA-256 of a confidential client's secret; never leaves the server. */
  secretHash: string | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
};

export type InteractionRow = {
  id: string;
  clientId: string;
  redirectUri: string;
  clientState: string | null;
  codeChallenge: string;
  scope: string;
  resource: string;
  csrfHash: string;
  stateHash: string | null;
  expiresAt: Date;
  consumedAt: Date | null;
};

export type GrantRow = {
  id: string;
  personId: string;
  login: string;
  giteaGrantId: string;
  clientId: string;
  scope: string;
  resource: string;
  redirectUri: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  firstUsedAt: Date | null;
  revokedAt: Date | null;
  revokedReason: string | null;
};

export type TokenRow = {
  hash: string;
  kind: string;
  grantId: string;
  scope: string;
  resource: string;
  codeChallenge: string | null;
  redirectUri: string | null;
  expiresAt: Date;
  usedAt: Date | null;
  revokedAt: Date | null;
};

export type Tombstone = { seq: bigint; subject: string };

export class OAuthStore {
  constructor(private readonly prisma: PrismaClient) {}

  // --- clients
  async client(id: string): Promise<ClientRow | null> {
    return (await this.prisma.oAuthClient.findUnique({ where: { id } })) as ClientRow | null;
  }

  async saveCimdClient(input: {
    id: string;
    name: string;
    redirectUris: string[];
    clientUri: string | null;
    expiresAt: Date;
  }): Promise<ClientRow> {
    const data = {
      kind: 'cimd',
      name: input.name,
      redirectUris: input.redirectUris,
      applicationType: input.redirectUris.every((u) => u.startsWith('http://')) ? 'native' : 'web',
      clientUri: input.clientUri,
      fetchedAt: new Date(),
      expiresAt: input.expiresAt,
    };
    return (await this.prisma.oAuthClient.upsert({
      where: { id: input.id },
      create: { id: input.id, ...data },
      update: data,
    })) as ClientRow;
  }

  async createDcrClient(input: {
    id: string;
    name: string;
    redirectUris: string[];
    applicationType: string;
    tokenEndpointAuthMethod: string;
    secretHash: string | null;
  }): Promise<ClientRow> {
    return (await this.prisma.oAuthClient.create({ data: { kind: 'dcr', ...input } })) as ClientRow;
  }

  async revokeClient(id: string, reason: string): Promise<number> {
    return this.prisma.$transaction(async (tx) => {
      await tx.oAuthClient.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date() } });
      const grants = await tx.oAuthGrant.updateMany({
        where: { clientId: id, revokedAt: null },
        data: { revokedAt: new Date(), revokedReason: reason },
      });
      await tx.oAuthTombstone.create({ data: { subject: `client:${id}`, reason } });
      return grants.count;
    });
  }

  // --- interactions
  async createInteraction(row: Omit<InteractionRow, 'stateHash' | 'consumedAt'>): Promise<void> {
    await this.prisma.oAuthInteraction.create({ data: row });
  }

  async interaction(id: string): Promise<InteractionRow | null> {
    return (await this.prisma.oAuthInteraction.findUnique({ where: { id } })) as InteractionRow | null;
  }

  /** Records the Gitea `state` just before the redirect (after consent); it expires with `expiresAt`. */
  async setState(id: string, stateHash: string, expiresAt: Date): Promise<boolean> {
    const r = await this.prisma.oAuthInteraction.updateMany({
      where: { id, consumedAt: null, stateHash: null },
      data: { stateHash, expiresAt },
    });
    return r.count === 1;
  }

  /** Takes the interaction a Gitea callback's `state` belongs to: once, and only before it expires. */
  async takeByState(stateHash: string, now: Date): Promise<InteractionRow | null> {
    const row = (await this.prisma.oAuthInteraction.findUnique({
      where: { stateHash },
    })) as InteractionRow | null;
    if (!row || row.consumedAt || row.expiresAt <= now) return null;
    const r = await this.prisma.oAuthInteraction.updateMany({
      where: { id: row.id, consumedAt: null },
      data: { consumedAt: now },
    });
    return r.count === 1 ? row : null;
  }

  async consumeInteraction(id: string, now: Date): Promise<boolean> {
    const r = await this.prisma.oAuthInteraction.updateMany({
      where: { id, consumedAt: null, expiresAt: { gt: now } },
      data: { consumedAt: now },
    });
    return r.count === 1;
  }

  // --- consents
  async consent(personId: string, clientId: string): Promise<string | null> {
    const row = await this.prisma.oAuthConsent.findUnique({
      where: { personId_clientId: { personId, clientId } },
    });
    return row?.scope ?? null;
  }

  async saveConsent(personId: string, clientId: string, scope: string): Promise<void> {
    await this.prisma.oAuthConsent.upsert({
      where: { personId_clientId: { personId, clientId } },
      create: { personId, clientId, scope },
      update: { scope, updatedAt: new Date() },
    });
  }

  // --- grants
  async createGrant(
    row: Omit<GrantRow, 'createdAt' | 'lastUsedAt' | 'firstUsedAt' | 'revokedAt' | 'revokedReason'>,
  ): Promise<void> {
    await this.prisma.oAuthGrant.create({ data: row });
  }

  async grant(id: string): Promise<GrantRow | null> {
    return (await this.prisma.oAuthGrant.findUnique({ where: { id } })) as GrantRow | null;
  }

  async grantsOf(personId: string | null): Promise<Array<GrantRow & { clientName: string }>> {
    const grants = (await this.prisma.oAuthGrant.findMany({
      where: { ...(personId ? { personId } : {}), revokedAt: null },
      orderBy: { createdAt: 'desc' },
      take: 500,
    })) as GrantRow[];
    const clients = await this.prisma.oAuthClient.findMany({
      where: { id: { in: [...new Set(grants.map((g) => g.clientId))] } },
      select: { id: true, name: true },
    });
    const names = new Map(clients.map((c) => [c.id, c.name]));
    return grants.map((g) => ({ ...g, clientName: names.get(g.clientId) ?? g.clientId }));
  }

  /** A call on this grant was refused for scope (step-up), recorded under `eventId`. */
  async recordStepUp(grantId: string, eventId: string | null, at: Date): Promise<void> {
    await this.prisma.oAuthGrant.updateMany({
      where: { id: grantId },
      data: { stepUpEventId: eventId, stepUpAt: at },
    });
  }

  /** The person's latest grant for a client (revoked or not), before a new one is created. */
  async latestGrantOf(personId: string, clientId: string): Promise<GrantRow | null> {
    return (await this.prisma.oAuthGrant.findFirst({
      where: { personId, clientId },
      orderBy: { createdAt: 'desc' },
    })) as GrantRow | null;
  }

  /**
   * Takes the latest step-up refusal of the person with this client since `since` (once: it is
   * cleared), for the elevation event's correlation id.
   */
  async takeStepUp(personId: string, clientId: string, since: Date): Promise<string | null> {
    const row = await this.prisma.oAuthGrant.findFirst({
      where: { personId, clientId, stepUpAt: { gte: since }, stepUpEventId: { not: null } },
      orderBy: { stepUpAt: 'desc' },
      select: { id: true, stepUpEventId: true },
    });
    if (!row?.stepUpEventId) return null;
    const taken = await this.prisma.oAuthGrant.updateMany({
      where: { id: row.id, stepUpEventId: row.stepUpEventId },
      data: { stepUpEventId: null, stepUpAt: null },
    });
    return taken.count === 1 ? row.stepUpEventId : null;
  }

  /** Records a use: last use always, first use only while it is still empty (set once). */
  async touchGrant(id: string, at: Date): Promise<void> {
    await this.prisma.oAuthGrant.updateMany({ where: { id, firstUsedAt: null }, data: { firstUsedAt: at } });
    await this.prisma.oAuthGrant.updateMany({ where: { id }, data: { lastUsedAt: at } });
  }

  /** Revokes grants (and so every code and token of theirs); one tombstone per grant. */
  async revokeGrants(
    where: { id?: string; personId?: string; giteaGrantId?: string },
    reason: string,
  ): Promise<number> {
    return this.prisma.$transaction(async (tx) => {
      const grants = await tx.oAuthGrant.findMany({
        where: { ...where, revokedAt: null },
        select: { id: true },
      });
      if (grants.length === 0) return 0;
      const ids = grants.map((g) => g.id);
      const now = new Date();
      await tx.oAuthGrant.updateMany({
        where: { id: { in: ids } },
        data: { revokedAt: now, revokedReason: reason },
      });
      await tx.oAuthToken.updateMany({
        where: { grantId: { in: ids }, revokedAt: null },
        data: { revokedAt: now },
      });
      await tx.oAuthTombstone.createMany({ data: ids.map((id) => ({ subject: `grant:${id}`, reason })) });
      return ids.length;
    });
  }

  // --- tokens (codes, access, refresh)
  async insertToken(row: Omit<TokenRow, 'usedAt' | 'revokedAt'>): Promise<void> {
    await this.prisma.oAuthToken.create({ data: row });
  }

  async token(hash: string): Promise<TokenRow | null> {
    return (await this.prisma.oAuthToken.findUnique({ where: { hash } })) as TokenRow | null;
  }

  /** Marks a code or refresh token used; false when it already was (a replay). */
  async markUsed(hash: string, now: Date): Promise<boolean> {
    const r = await this.prisma.oAuthToken.updateMany({
      where: { hash, usedAt: null },
      data: { usedAt: now },
    });
    return r.count === 1;
  }

  async revokeToken(hash: string, reason: string): Promise<void> {
    await this.prisma.$transaction(async (tx) => {
      await tx.oAuthToken.updateMany({ where: { hash, revokedAt: null }, data: { revokedAt: new Date() } });
      await tx.oAuthTombstone.create({ data: { subject: `token:${hash}`, reason } });
    });
  }

  // --- tombstones
  async latestTombstone(): Promise<bigint> {
    const row = await this.prisma.oAuthTombstone.findFirst({
      orderBy: { seq: 'desc' },
      select: { seq: true },
    });
    return row?.seq ?? 0n;
  }

  async tombstonesAfter(seq: bigint): Promise<Tombstone[]> {
    return this.prisma.oAuthTombstone.findMany({
      where: { seq: { gt: seq } },
      orderBy: { seq: 'asc' },
      take: 10_000,
      select: { seq: true, subject: true },
    });
  }
}
