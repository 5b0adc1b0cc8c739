// MCP_GRANT_REVOKER as a relay with no dependencies of its own. The Gitea side needs the revoker
// (a person who lost their Gitea grant loses their MCP grants), and the authorization server needs
// the Gitea side (sign-in, grants): injecting the server directly would be a provider cycle, which
// Nest resolves by handing one optional dependency `undefined`. The server attaches itself here
// when it is built; until then (or with mode oauth off) there is nothing to revoke.
import type { McpGrantRevoker } from '../../core/oauth/gitea-seam';

export class GrantRevokerRelay implements McpGrantRevoker {
  private target: McpGrantRevoker | null = null;

  attach(target: McpGrantRevoker): void {
    this.target = target;
  }

  revokePerson(personId: string, reason: string): Promise<number> {
    return this.target ? this.target.revokePerson(personId, reason) : Promise.resolve(0);
  }

  revokeGiteaGrant(giteaGrantId: string, reason: string): Promise<number> {
    return this.target ? this.target.revokeGiteaGrant(giteaGrantId, reason) : Promise.resolve(0);
  }
}
