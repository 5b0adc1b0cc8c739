export { DATABASE, DatabaseModule } from './database.module';
export {
  IN_MEMORY_DATA_DIR,
  openDatabase,
  type Database,
  type DatabaseOptions,
  type MigrateOptions,
} from './database';
export { migrate, readMigrations, checksumOf, MigrationError, type MigrationResult } from './migrator';
