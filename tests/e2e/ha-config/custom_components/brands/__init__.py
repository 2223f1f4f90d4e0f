"""Stands in for the built-in integration of this name in the end-to-end tests.

Home Assistant sets up analytics, and from 2026 marketplace, brands and map_tiles, on every start
whatever configuration.yaml says, and each of them reaches the internet: usage reports, the
store's catalogue (fetched by itself, through an mDNS resolver that listens on every interface),
brand images and map tiles (fetched when a browser asks). A custom integration of the same name
replaces the built-in one, so the test hub never does. tests/e2e/ha-peer.test.ts checks that
these are loaded from here and that nothing else that reaches the network is.
"""


async def async_setup(hass, config):
    """Set up nothing."""
    return True
