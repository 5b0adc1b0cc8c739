// Injection token of the Redis connection factory (src/infra/redis/redis.module.ts).
export const REDIS_CONNECTIONS = Symbol('REDIS_CONNECTIONS'); // RedisConnections, or null without REDIS_URL
