# tagtrail service image. `npm start` runs the TypeScript sources through tsx
# (a dev dependency), so dev dependencies are installed too.
FROM node:20-slim
WORKDIR /app

COPY package.json package-lock.json .npmrc ./
RUN npm ci && npm cache clean --force

COPY . .

ENV HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data
VOLUME ["/data"]
EXPOSE 8080

# node:20-slim has no curl; Node's fetch does the probe.
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]

# npm forwards SIGTERM to the service, which shuts down gracefully.
CMD ["npm", "start"]
