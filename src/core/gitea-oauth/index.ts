export * from './gitea-scopes';
export * from './errors';
export * from './grant-cipher';
