export * from './audit-record.types';
export * from './audit-chain.util';
export * from './audit-entry.util';
export * from './audit-query.util';
export * from './audit-export.util';
export * from './audit-queue.port';
