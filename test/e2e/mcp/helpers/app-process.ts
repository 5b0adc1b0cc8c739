// Child-process entry for the MCP e2e tests: boots config + tools + auth + mcp modules on
// 127.0.0.1:0 with the AppConfig passed in AEGIS_TEST_CONFIG, prints "READY <port>" and exits on SIGTERM.
// With AEGIS_TEST_FULL=true it boots the real composition root instead (src/main.ts createApp:
// database, queue, metrics, health and every FEATURE_MODULES entry, the audit trail included).
import 'reflect-metadata';
import { Global, Module, type DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { AppConfig } from '../../../../src/config/app-config';
import { AppConfigModule } from '../../../../src/config/config.module';
import { McpModule } from '../../../../src/modules/mcp/mcp.module';
import { ToolsModule } from '../../../../src/modules/tools/tools.module';
import { createApp } from '../../../../src/main';
import type { AuditSink } from '../../../../src/core/ports';
import { AUDIT_SINK } from '../../../../src/modules/tokens';
import { serveChild } from '../../helpers/child-entry';

// With AEGIS_TEST_RECORD_AUDIT=true, every audit entry is written to stdout as one `AUDIT <json>`
// line, so a test can check what the AuditSink receives without a database.
const recordingAuditSink: AuditSink = {
  record: (entry) => void process.stdout.write(`AUDIT ${JSON.stringify(entry)}\n`),
};

@Global()
@Module({ providers: [{ provide: AUDIT_SINK, useValue: recordingAuditSink }], exports: [AUDIT_SINK] })
class RecordingAuditModule {}

@Module({})
class McpTestModule {
  static with(config: AppConfig, recordAudit: boolean): DynamicModule {
    return {
      module: McpTestModule,
      imports: [
        AppConfigModule.forRoot(config),
        ...(recordAudit ? [RecordingAuditModule] : []),
        ToolsModule,
        McpModule,
      ],
    };
  }
}

serveChild(
  () => {
    const config = JSON.parse(process.env.AEGIS_TEST_CONFIG ?? '') as AppConfig;
    return process.env.AEGIS_TEST_FULL === 'true'
      ? createApp(config)
      : NestFactory.create(McpTestModule.with(config, process.env.AEGIS_TEST_RECORD_AUDIT === 'true'), {
          logger: false,
          bodyParser: process.env.AEGIS_TEST_BODY_PARSER === 'true',
        });
  },
  Number(process.env.AEGIS_TEST_PORT ?? '0'),
);
