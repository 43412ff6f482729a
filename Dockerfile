# The platform's container image. Build: docker build -t agent-platform .
# Run beside PostgreSQL with pgvector: compose.yaml (README: "In a container").
#
# Stage 1 installs every dependency (dev included) and builds what the server
# serves but does not compile itself: the widget bundle (esbuild) and, where
# the checkout has one, the console.
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# .npmrc keeps onnxruntime-node from fetching GPU binaries; npm ci installs the
# workspaces package.json names, so their manifests must be there.
COPY test/fixtures/partner-plugin/package.json test/fixtures/partner-plugin/package.json
RUN npm ci --no-audit --no-fund
COPY . .
RUN node scripts/build-widget.ts --quiet \
 && if [ -f scripts/build-console.ts ]; then node scripts/build-console.ts --quiet; fi \
 && rm -rf node_modules

# Stage 2: production dependencies only.
FROM node:24-slim AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY test/fixtures/partner-plugin/package.json test/fixtures/partner-plugin/package.json
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# Stage 3: the runtime. TypeScript runs as it is (Node strips the types): the
# sources come from stage 1 with what it built (its dev dependencies removed),
# the production dependencies from stage 2.
FROM node:24-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    PLATFORM_DATA_DIR=/data \
    NODE_COMPILE_CACHE=/tmp/node-compile-cache
WORKDIR /app
COPY --from=build /app ./
COPY --from=deps /app/node_modules ./node_modules
# The code belongs to root and is read-only to the server's user; only the
# data directory (the embedded database and its generated master key, when no
# DATABASE_URL is set) is writable.
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "core/cli/bin.ts", "serve"]
