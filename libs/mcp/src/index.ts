export * from './mcp.module';
export * from './mcp-tool';
export { McpServerFactory, SERVER_INFO, toolError, type McpCall } from './mcp-server.factory';
export { installMcpAnswers, MCP_PATH, PROTECTED_RESOURCE_PATH } from './http/mcp-challenge';
export { BRAND_URI } from './resources/brand-resources';
