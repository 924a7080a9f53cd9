"""An OAuth-protected MCP server on the official Python SDK (mcp==2.3.0,
`MCPServer` with `mcp.server.auth`): the server is its own authorization
server, with an in-memory provider that approves every authorization at once
(the user said yes) and dynamic client registration. Access tokens live
`--lifetime` seconds; refresh tokens are rotated on every refresh.

Every step of the provider is appended to `--events FILE` as a JSON line
(registrations, authorizations with their redirect URI and resource, the
codes, access and refresh tokens it issued, refreshes, expired tokens
presented), for the test to count and to look for in the bridge's logs.

Run:  venv/bin/python python/oauth_server.py PORT --events FILE --lifetime SECONDS
"""

from __future__ import annotations

import argparse
import json
import secrets
import time

from mcp.server.auth.provider import (
    AccessToken,
    AuthorizationCode,
    AuthorizationParams,
    RefreshToken,
    construct_redirect_uri,
)
from mcp.server.auth.settings import AuthSettings, ClientRegistrationOptions
from mcp.server.mcpserver import MCPServer
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken

parser = argparse.ArgumentParser()
parser.add_argument("port", type=int)
parser.add_argument("--events", required=True)
parser.add_argument("--lifetime", type=int, default=3600)
args = parser.parse_args()


def event(kind: str, **fields: object) -> None:
    with open(args.events, "a") as f:
        f.write(json.dumps({"event": kind, "at": time.time(), **fields}) + "\n")


class ApprovingProvider:
    """Clients, codes and tokens in memory; every authorization approved."""

    def __init__(self) -> None:
        self.clients: dict[str, OAuthClientInformationFull] = {}
        self.codes: dict[str, AuthorizationCode] = {}
        self.access: dict[str, AccessToken] = {}
        self.refresh: dict[str, RefreshToken] = {}

    async def get_client(self, client_id: str) -> OAuthClientInformationFull | None:
        return self.clients.get(client_id)

    async def register_client(self, client_info: OAuthClientInformationFull) -> None:
        self.clients[client_info.client_id] = client_info
        event(
            "register",
            client_id=client_info.client_id,
            client_secret=client_info.client_secret,
            redirect_uris=[str(u) for u in client_info.redirect_uris or []],
            application_type=client_info.application_type,
        )

    async def authorize(self, client: OAuthClientInformationFull, params: AuthorizationParams) -> str:
        code = secrets.token_urlsafe(32)
        self.codes[code] = AuthorizationCode(
            code=code,
            scopes=params.scopes or [],
            expires_at=time.time() + 300,
            client_id=client.client_id,
            code_challenge=params.code_challenge,
            redirect_uri=params.redirect_uri,
            redirect_uri_provided_explicitly=params.redirect_uri_provided_explicitly,
            resource=params.resource,
        )
        event(
            "authorize",
            client_id=client.client_id,
            redirect_uri=str(params.redirect_uri),
            resource=params.resource,
            scopes=params.scopes,
            code=code,
            state=params.state,
        )
        return construct_redirect_uri(str(params.redirect_uri), code=code, state=params.state)

    async def load_authorization_code(self, client: OAuthClientInformationFull, authorization_code: str):
        return self.codes.get(authorization_code)

    def _issue(self, client_id: str, scopes: list[str], resource: str | None) -> OAuthToken:
        access = "at-" + secrets.token_urlsafe(24)
        refresh = "rt-" + secrets.token_urlsafe(24)
        expires = int(time.time()) + args.lifetime
        self.access[access] = AccessToken(
            token=access, client_id=client_id, scopes=scopes, expires_at=expires, resource=resource
        )
        self.refresh[refresh] = RefreshToken(token=refresh, client_id=client_id, scopes=scopes, resource=resource)
        event("tokens", access_token=access, refresh_token=refresh, expires_at=expires)
        return OAuthToken(
            access_token=access, expires_in=args.lifetime, scope=" ".join(scopes) or None, refresh_token=refresh
        )

    async def exchange_authorization_code(self, client: OAuthClientInformationFull, authorization_code: AuthorizationCode):
        self.codes.pop(authorization_code.code, None)
        return self._issue(client.client_id, authorization_code.scopes, authorization_code.resource)

    async def load_refresh_token(self, client: OAuthClientInformationFull, refresh_token: str):
        return self.refresh.get(refresh_token)

    async def exchange_refresh_token(self, client: OAuthClientInformationFull, refresh_token: RefreshToken, scopes: list[str]):
        # Rotated: the old refresh token is no longer good.
        self.refresh.pop(refresh_token.token, None)
        event("refresh", refresh_token=refresh_token.token)
        return self._issue(client.client_id, scopes or refresh_token.scopes, refresh_token.resource)

    async def load_access_token(self, token: str) -> AccessToken | None:
        access = self.access.get(token)
        if access and access.expires_at and access.expires_at < time.time():
            event("expired-token-presented", access_token=token)
            return None
        return access

    async def revoke_token(self, token) -> None:
        self.access.pop(token.token, None)
        self.refresh.pop(token.token, None)


base = f"http://127.0.0.1:{args.port}"
mcp = MCPServer(
    "oauth-demo-server",
    version="0.1.0",
    auth_server_provider=ApprovingProvider(),
    auth=AuthSettings(
        issuer_url=base,
        resource_server_url=f"{base}/mcp",
        validate_token_resource=True,
        client_registration_options=ClientRegistrationOptions(enabled=True),
    ),
)


@mcp.tool(description="Say who is calling: proof that the call was authorized.")
def whoami() -> str:
    from mcp.server.auth.middleware.auth_context import get_access_token

    token = get_access_token()
    return f"client {token.client_id}" if token else "nobody"


if __name__ == "__main__":
    mcp.run("streamable-http", host="127.0.0.1", port=args.port)
