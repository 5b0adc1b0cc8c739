// The embedded default (PGlite, in-process queue, no Redis) never loads the drivers of the
// production configuration: BullMQ, ioredis, pg and Prisma's pg adapter are loaded only when
// REDIS_URL / DATABASE_URL ask for them, and PGlite only when the embedded database is opened.
// Each of these packages is replaced by a module that throws when it is loaded, so a static
// import anywhere in the service's module graph fails the test.
const loaded: string[] = [];
function refuse(name: string): never {
  loaded.push(name);
  throw new Error(`${name} was loaded`);
}
jest.mock('bullmq', () => refuse('bullmq'));
jest.mock('ioredis', () => refuse('ioredis'));
jest.mock('pg', () => refuse('pg'));
jest.mock('@prisma/adapter-pg', () => refuse('@prisma/adapter-pg'));
jest.mock('@electric-sql/pglite', () => refuse('@electric-sql/pglite'));
jest.mock('pglite-prisma-adapter', () => refuse('pglite-prisma-adapter'));

describe('drivers are loaded when the configuration asks for them', () => {
  it('loading the whole service (AppModule and the entry point) loads none of them', async () => {
    await jest.isolateModulesAsync(async () => {
      await import('../../../src/app.module');
      await import('../../../src/main');
    });
    expect(loaded).toEqual([]);
  }, 120_000);

  it('the in-process queue is made without BullMQ; a Redis URL loads it', async () => {
    const { createJobQueue } = await import('../../../src/infra/queue/create-job-queue');
    const queue = await createJobQueue(null);
    expect(queue.kind).toBe('in-process');
    await queue.close();
    expect(loaded).toEqual([]);
    await expect(createJobQueue('redis://127.0.0.1:1')).rejects.toThrow(/was loaded/);
    expect(loaded.length).toBeGreaterThan(0);
  });
});
