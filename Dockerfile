# tagtrail service image, on Node 22 LTS (Node 20 is past its end of life).
# `npm start` runs the TypeScript sources through tsx's require hook, so tsx
# is a runtime dependency and there is no build step: the image runs the same
# files that the tests run. Dev dependencies (compiler, linters, test tools)
# stay out of the final image.
FROM node:22-slim AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev && npm cache clean --force

FROM node:22-slim
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY . .

ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data
VOLUME ["/data"]
EXPOSE 8080

# node:22-slim has no curl; Node's fetch does the probe.
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]

# npm forwards SIGTERM to the service, which shuts down gracefully.
CMD ["npm", "start"]
