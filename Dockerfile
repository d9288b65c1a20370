# One image for the api, the worker and the CLI (docker-compose.yml picks the command).
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# npm ci runs scripts/prepare.mjs (it skips its steps whose sources are not copied yet).
COPY scripts ./scripts
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:22-bookworm-slim
ENV NODE_ENV=production
# A deployment names its servers (DATABASE_URL, REDIS_URL): the image never starts its own.
ENV LOCAL_SERVICES=never
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
RUN mkdir -p /var/lib/ai-visibility/secrets && chown node:node /var/lib/ai-visibility/secrets
USER node
EXPOSE 3000
CMD ["node", "dist/apps/api/src/main.js"]
