// The Nest glue: ToolsModule builds TOOL_SERVICE from APP_CONFIG and works without an audit sink.
import 'reflect-metadata';
import { Global, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { APP_CONFIG, type AppConfig } from '../../../src/config/app-config';
import type { ToolService } from '../../../src/core/executor/tool-service';
import { ToolsModule } from '../../../src/modules/tools/tools.module';
import { TOOL_SERVICE } from '../../../src/modules/tokens';
import { startGiteaSimulator, type GiteaSimulator } from '../../simulator';

describe('ToolsModule', () => {
  let sim: GiteaSimulator;
  beforeAll(async () => {
    sim = await startGiteaSimulator({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => sim?.close());

  it('provides a working ToolService from configuration', async () => {
    const config = {
      gitea: {
        url: sim.url,
        token: sim.tokens.admin,
        timeoutMs: 5000,
        oauthClientId: null,
        oauthClientSecret: null,
      },
      mcp: { bearerToken: 'bearer-secret' },
      tools: {
        specSource: 'bundled',
        toolsets: [],
        mode: 'full',
        readOnly: true,
        disabledTools: ['repoGetBranch'],
        allowSudo: false,
        maxResponseItems: 100,
        maxResponseChars: 100_000,
        maxBinaryBytes: 1 << 20,
      },
      secrets: { detectionMode: 'mask', encryptionKey: null, previousEncryptionKeys: [] },
      // Read by the list of configured secrets that exact redaction covers.
      server: { metricsToken: null },
      admin: { token: null },
      storage: { databaseUrl: null, redisUrl: null },
    } as unknown as AppConfig;
    @Global()
    @Module({ providers: [{ provide: APP_CONFIG, useValue: config }], exports: [APP_CONFIG] })
    class ConfigStub {}
    const moduleRef = await Test.createTestingModule({ imports: [ConfigStub, ToolsModule] }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    await app.init();
    const tools = app.get<ToolService>(TOOL_SERVICE);
    const names = tools.listTools().map((t) => t.name);
    expect(names).not.toContain('repoGetBranch');
    expect(names).not.toContain('repoDelete');
    const identity = {
      login: 'admin',
      mode: 'token' as const,
      sudo: 'alice',
      token: sim.tokens.admin,
      isSiteAdmin: true,
      subject: 'token:svc',
    };
    const me = await tools.callTool('userGetCurrent', {}, identity);
    expect(JSON.parse(me.content[0]!.text).data.login).toBe('alice');
    expect(me.content[0]!.text).not.toContain(sim.tokens.admin);
    const refused = await tools.callTool(
      'repoGetBranch',
      { owner: 'acme', repo: 'widgets', branch: 'main' },
      identity,
    );
    expect(JSON.parse(refused.content[0]!.text).error.kind).toBe('tool_disabled');
    await app.close();
  });
});
