// The host side of MCP Apps that the browser test's host page loads (bundled by the test).
export { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
