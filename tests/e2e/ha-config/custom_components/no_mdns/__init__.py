"""End-to-end tests only: the test hub resolves host names without mDNS.

From 2025, every aiohttp client session Home Assistant makes resolves names through an mDNS
resolver (homeassistant/helpers/aiohttp_client.py), which opens zeroconf's socket on port 5353 on
every interface: the first OAuth token request or MCP connection (tests/e2e/ha-mcp.test.ts) would
have the test hub listening beyond loopback. Nothing here needs a .local name (the bridge is at
127.0.0.1), so the resolver is aiohttp's plain one. Set up before any session is made; if one was
made first, setup fails and says so. 2024.3 has no mDNS resolver and needs nothing.
"""

import logging

from aiohttp.resolver import ThreadedResolver

from homeassistant.helpers import aiohttp_client

DOMAIN = "no_mdns"
_LOGGER = logging.getLogger(__name__)


class PlainResolver(ThreadedResolver):
    """aiohttp's resolver, closed with Home Assistant as its own resolver is."""

    async def real_close(self) -> None:
        """Close the resolver when Home Assistant closes."""
        await super().close()

    async def close(self) -> None:
        """Sessions close; the shared resolver stays."""


if hasattr(aiohttp_client, "_async_make_resolver"):
    aiohttp_client._async_make_resolver = lambda hass: PlainResolver()


async def async_setup(hass, config):
    """Check that no session resolved through mDNS before this module replaced the resolver."""
    key = getattr(aiohttp_client, "DATA_RESOLVER", None)
    resolver = hass.data.get(key) if key is not None else None
    if resolver is not None and not isinstance(resolver, PlainResolver):
        _LOGGER.error("A client session was made before no_mdns was loaded: its mDNS resolver listens on every interface")
        return False
    return True
