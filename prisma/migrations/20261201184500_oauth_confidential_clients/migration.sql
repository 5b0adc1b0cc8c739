-- Confidential MCP clients (checklist B1): how a client authenticates at the token endpoint, and
-- the SHA-256 of its secret (the secret itself is returned once, at registration).

-- AlterTable
ALTER TABLE "oauth_clients" ADD COLUMN "token_endpoint_auth_method" TEXT NOT NULL DEFAULT 'none',
ADD COLUMN "secret_hash" TEXT;
