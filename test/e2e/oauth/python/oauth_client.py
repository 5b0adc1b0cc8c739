"""The Python `mcp` package's own OAuth client against the service (driven by oauth-python.test.ts).

The person's part (consent page, Gitea sign-in) is done by the test: this script prints
`AUTHORIZE <url>` and reads `CALLBACK <url>` on stdin, as a desktop app would open a browser and
receive the loopback redirect. Then it calls tools as the person and prints one `RESULT <json>`.
"""

import asyncio
import json
import sys
from urllib.parse import parse_qs, urlparse

import httpx2
from mcp import Client
from mcp.client.auth import OAuthClientProvider, TokenStorage
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import AuthorizationCodeResult, OAuthClientInformationFull, OAuthClientMetadata, OAuthToken


class MemoryStorage(TokenStorage):
    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client = client_info


async def main(mcp_url: str) -> None:
    loop = asyncio.get_running_loop()
    storage = MemoryStorage()

    async def redirect(url: str) -> None:
        print(f"AUTHORIZE {url}", flush=True)

    async def callback() -> AuthorizationCodeResult:
        line = await loop.run_in_executor(None, sys.stdin.readline)
        query = parse_qs(urlparse(line.strip().removeprefix("CALLBACK ")).query)
        return AuthorizationCodeResult(
            code=query["code"][0], state=query.get("state", [None])[0], iss=query.get("iss", [None])[0]
        )

    provider = OAuthClientProvider(
        server_url=mcp_url,
        client_metadata=OAuthClientMetadata(
            client_name="Python mcp e2e",
            redirect_uris=["http://127.0.0.1:43119/callback"],
            grant_types=["authorization_code", "refresh_token"],
            response_types=["code"],
            token_endpoint_auth_method="none",
        ),
        storage=storage,
        redirect_handler=redirect,
        callback_handler=callback,
    )
    async with httpx2.AsyncClient(auth=provider, timeout=30) as http:
        async with Client(streamable_http_client(mcp_url, http_client=http)) as client:
            tools = await client.list_tools()
            me = await client.call_tool("userGetCurrent", {})
            text = me.content[0].text
    print(
        "RESULT "
        + json.dumps(
            {
                "tools": len(tools.tools),
                "envelope": json.loads(text),
                "client_id": storage.client.client_id if storage.client else None,
                "scope": storage.tokens.scope if storage.tokens else None,
                "token_prefix": storage.tokens.access_token[:9] if storage.tokens else None,
            }
        ),
        flush=True,
    )


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
