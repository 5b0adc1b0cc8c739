# syntax=docker/dockerfile:1
# AegisGitea-MCP image: built in one stage, run from a second one that holds only the compiled
# service, its production dependencies, the migrations and the bundled Gitea spec.
#   docker build -t aegis-gitea-mcp .
#   docker run --read-only --tmpfs /tmp -v aegis-data:/data -p 8080:8080 -e GITEA_URL=... aegis-gitea-mcp
#   docker run --rm -e DATABASE_URL=... aegis-gitea-mcp node dist/src/cli/migrate.js   (offline migrations)
# What this image runs is tested without Docker: scripts/image-check.mjs (run by .ci/run).
ARG NODE_IMAGE=node:22-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /src
# Dependencies first (cached while only sources change); postinstall generates the Prisma client
# offline (scripts/prisma-generate.mjs).
COPY package.json package-lock.json .npmrc prisma.config.ts ./
COPY scripts/prisma-generate.mjs scripts/console-build.mjs scripts/pglite-template.mjs scripts/
COPY prisma ./prisma
RUN ONNXRUNTIME_NODE_INSTALL=skip npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY gitea ./gitea
COPY src ./src
COPY test/simulator ./test/simulator
COPY bench ./bench
RUN npm run build
# The console (its own package in web/, own lock file): installed and built into web/dist.
COPY web ./web
RUN node scripts/console-build.mjs --force

FROM ${NODE_IMAGE} AS production-dependencies
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY scripts/prisma-generate.mjs scripts/console-build.mjs scripts/
RUN ONNXRUNTIME_NODE_INSTALL=skip npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    METRICS_PORT=9464 \
    DATA_DIR=/data
WORKDIR /app
# Owned by root and not writable by the service user: the app cannot change its own code.
COPY --from=production-dependencies /app/node_modules ./node_modules
COPY --from=build /src/dist ./dist
COPY --from=build /src/web/dist ./web/dist
COPY package.json ./
COPY prisma/migrations ./prisma/migrations
COPY gitea/swagger.v1.json ./gitea/swagger.v1.json
COPY gitea/tool-vectors.minilm.json ./gitea/tool-vectors.minilm.json
# Discovery search's sentence encoder (all-MiniLM-L6-v2, int8 ONNX; models/README.md).
COPY models ./models
# The only writable place besides /tmp: the embedded database (unused when DATABASE_URL is set).
RUN groupadd --system --gid 10001 aegis \
 && useradd --system --uid 10001 --gid aegis --home-dir /data --shell /usr/sbin/nologin aegis \
 && mkdir -p /data && chown aegis:aegis /data && chmod 0700 /data
USER 10001:10001
VOLUME ["/data"]
EXPOSE 8080 9464
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
STOPSIGNAL SIGTERM
# --max-semi-space-size=8: V8's young generation at 2 x 8 MB instead of 2 x 16 MB (Node's default):
# less resident memory than the default; 4 MB saved about 10 MB more but, at 32 calls in flight, cost
# 10-20 % more CPU per call in collections (the calls' temporaries outlived the smaller semi-space
# and were promoted; docs/performance-history.md, 2026-12-04).
# --heap-growing-percent=50: the old generation is collected again once it reaches 1.5 x what the
# last full collection kept, instead of up to 4 x (V8's default on a machine with GBs of memory):
# the garbage of a burst of calls, and the buffers it keeps alive, no longer pile up to 100+ MB
# before a collection (production RSS after the bench's load about 300 -> 180 MB, same CPU per call;
# docs/performance-history.md). It sets when collections happen, not a cap: the heap still grows
# to whatever is live. The same flags are in package.json (start:prod), scripts/start.mjs and the
# bench (test/unit/startup/node-flags.test.ts keeps them in step).
CMD ["node", "--max-semi-space-size=8", "--heap-growing-percent=50", "dist/src/main.js"]
