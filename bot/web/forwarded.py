"""The real client behind the reverse proxy (README, "Behind a proxy"): WEB_TRUSTED_PROXIES lists the proxy's
addresses (or networks); a request whose TCP peer is one of them has its client, scheme and host taken from
the proxy's `X-Forwarded-For`, `X-Forwarded-Proto` and `X-Forwarded-Host` (aiohttp-remotes' strict reading:
exactly one address, the one the proxy saw, else 400), so rate limits and caps count each viewer on their
own. From any other peer these headers are ignored: a client cannot pick its own address by sending them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from ipaddress import IPv4Network, IPv6Network, ip_address, ip_network

from aiohttp import web
from aiohttp_remotes import XForwardedStrict

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def parse_proxies(values: Sequence[str]) -> tuple[IPv4Network | IPv6Network, ...]:
    """The networks of `values` (an address is a network of one); ValueError names a value that is
    neither."""
    networks = []
    for value in values:
        try:
            networks.append(ip_network(value.strip(), strict=False))
        except ValueError:
            raise ValueError(f"{value!r} is not an IP address or network") from None
    return tuple(networks)


class TrustedProxies:
    """Forwarded headers, believed only from `proxies` (see the module doc)."""

    def __init__(self, proxies: Sequence[str]) -> None:
        self.networks = parse_proxies(proxies)
        self._strict = XForwardedStrict([[str(n) for n in self.networks]]) if self.networks else None

    def trusts(self, peer: str | None) -> bool:
        """Whether `peer` (a TCP peer's address) is one of the trusted proxies."""
        if not peer or not self.networks:
            return False
        try:
            address = ip_address(peer)
        except ValueError:
            return False
        return any(address in network for network in self.networks)

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        peername = request.transport.get_extra_info("peername") if request.transport is not None else None
        peer = str(peername[0]) if isinstance(peername, tuple) and peername else None
        if self._strict is None or not self.trusts(peer):
            return await handler(request)
        return await self._strict.middleware(request, handler)
