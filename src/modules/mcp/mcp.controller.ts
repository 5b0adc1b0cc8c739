// Thin route: everything about the MCP transport lives in McpEndpoint.
import { All, Controller, Inject, Req, Res } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpEndpoint } from './mcp-endpoint';
import { MCP_ENDPOINT } from './mcp.tokens';

@Controller()
export class McpController {
  constructor(@Inject(MCP_ENDPOINT) private readonly endpoint: McpEndpoint) {}

  @All('mcp')
  async mcp(@Req() req: IncomingMessage, @Res() res: ServerResponse): Promise<void> {
    await this.endpoint.handle(req, res);
  }
}
