// The database adapter's injection token: a connected, migrated PrismaClient.
export const PRISMA = Symbol('PRISMA');
