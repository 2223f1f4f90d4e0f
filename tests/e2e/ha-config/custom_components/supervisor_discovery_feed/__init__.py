"""End-to-end tests only: hands Home Assistant a Supervisor discovery message.

No Supervisor runs on the test machine. When an add-on announces a service, Home Assistant's
hassio integration reads the message from the Supervisor and starts that service's config flow
with a HassioServiceInfo (homeassistant/components/hassio/discovery.py, async_process_new). This
view makes the same call with the message the simulator's Supervisor holds, so the `hassio` step
of the `mcp` integration sees exactly what it would see in a real installation. Admins only.
"""

from aiohttp import web

from homeassistant import config_entries
from homeassistant.components.http import KEY_HASS, HomeAssistantView, require_admin
from homeassistant.helpers import discovery_flow

DOMAIN = "supervisor_discovery_feed"


class DiscoveryFeedView(HomeAssistantView):
    """POST {service, config, name, addon, uuid}: one discovery message, as the Supervisor has it."""

    url = "/api/supervisor_discovery_feed"
    name = "api:supervisor_discovery_feed"

    @require_admin
    async def post(self, request: web.Request) -> web.Response:
        # Imported here: releases before 2025 keep HassioServiceInfo elsewhere, and load this
        # component too (the end-to-end configuration is shared).
        from homeassistant.helpers.service_info.hassio import HassioServiceInfo

        hass = request.app[KEY_HASS]
        data = await request.json()
        discovery_flow.async_create_flow(
            hass,
            data["service"],
            context={"source": config_entries.SOURCE_HASSIO},
            data=HassioServiceInfo(
                config=data["config"],
                name=data["name"],
                slug=data["addon"],
                uuid=data["uuid"],
            ),
            discovery_key=discovery_flow.DiscoveryKey(
                domain="hassio", key=data["uuid"], version=1
            ),
        )
        return web.json_response({"accepted": True})


async def async_setup(hass, config):
    """Register the view."""
    hass.http.register_view(DiscoveryFeedView())
    return True
