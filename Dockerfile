# Home MCP Bridge add-on image. Node 20 is taken from the official image of the same Debian
# release as the Home Assistant base, so native modules built here match the runtime's glibc.
ARG BUILD_FROM=ghcr.io/home-assistant/base-debian:trixie

FROM node:20-trixie-slim AS build
WORKDIR /src
RUN apt-get update \
    && apt-get install -y --no-install-recommends python3 make g++ \
    && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json ./
COPY scripts ./scripts
COPY src ./src
COPY plugins ./plugins
RUN npm run build && npm prune --omit=dev

FROM ${BUILD_FROM}
COPY --from=build /usr/local/bin/node /usr/local/bin/node
WORKDIR /opt/home-mcp-bridge
COPY --from=build /src/package.json ./
COPY --from=build /src/node_modules ./node_modules
# Build output only: the service and the built-in plugins compiled beside it (dist/src, dist/plugins).
COPY --from=build /src/dist ./dist
# The panel's pages, scripts and images (plain files, served as they are).
COPY --from=build /src/src/panel ./src/panel
COPY rootfs /

HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:3000/health').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

ARG BUILD_ARCH
ARG BUILD_VERSION
LABEL io.hass.name="Home MCP Bridge" \
      io.hass.type="addon" \
      io.hass.arch="${BUILD_ARCH}" \
      io.hass.version="${BUILD_VERSION}"
