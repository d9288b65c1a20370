// The `web-bot-auth/crypto` export, typed for the project's node10 module resolution (which does not read package exports).
declare module 'web-bot-auth/crypto' {
  export * from 'web-bot-auth/dist/crypto';
}
