// The admin console (issue 15): the React app in web/, built to web/dist, served under /admin,
// and its server-side sessions (/admin/auth/*). The session controller is listed first so its
// routes win over the page fallback.
import { Module } from '@nestjs/common';
import { PRISMA } from '../tokens';
import { ConsoleSessionStore, type SessionDb } from '../../infra/console/console-session.store';
import { ConsoleController } from './console.controller';
import { ConsoleSessionController } from './console-session.controller';
import { CONSOLE_SESSIONS } from './console.tokens';

@Module({
  controllers: [ConsoleSessionController, ConsoleController],
  providers: [
    {
      provide: CONSOLE_SESSIONS,
      inject: [PRISMA],
      useFactory: (prisma: SessionDb) => new ConsoleSessionStore(prisma),
    },
  ],
  exports: [CONSOLE_SESSIONS],
})
export class ConsoleModule {}
