// The admin console (issue 15): the React app in web/, built to web/dist, served under /admin.
import { Module } from '@nestjs/common';
import { ConsoleController } from './console.controller';

@Module({ controllers: [ConsoleController] })
export class ConsoleModule {}
