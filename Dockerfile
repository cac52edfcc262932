# tagtrail service image, on Node 22 LTS (Node 20 is past its end of life).
# Three stages: `build` compiles the TypeScript sources to dist/ with the dev
# dependencies (the compiler), `deps` installs the production dependencies
# alone, and the final image takes dist/, those dependencies and the web
# console's files. No compiler, test tool or source file is in it, and no npm
# stands between the container and the service: node is the container's main
# process, so `docker stop` (SIGTERM) and a Ctrl-C of `docker run` (SIGINT)
# reach the service once, and it shuts down gracefully (docs/operations.md).
FROM node:22-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY projections ./projections
COPY scripts ./scripts
RUN npm run build

FROM node:22-slim AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev && npm cache clean --force

FROM node:22-slim
WORKDIR /app
# The commit shown by GET /about/v1/info (the image has no git checkout):
# docker build --build-arg GIT_COMMIT=$(git rev-parse HEAD) .
ARG GIT_COMMIT=""
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data \
    GIT_COMMIT=${GIT_COMMIT}
# Owned by root and read-only to the service: it cannot change its own code.
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY console ./console
# The one directory the service writes. Created owned by the unprivileged
# user `node` (uid 1000, from the base image) before VOLUME, so a new volume
# mounted there starts with that owner.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080

# node:22-slim has no curl; Node's fetch does the probe.
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]

STOPSIGNAL SIGTERM
CMD ["node", "dist/src/main.js"]
