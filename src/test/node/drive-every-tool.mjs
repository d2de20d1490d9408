// Drives every tool of a SchemaBrain server over Streamable HTTP with the TypeScript MCP SDK's client.
// Usage: node drive-every-tool.mjs http://127.0.0.1:PORT/mcp   (run from a directory whose node_modules
// holds @modelcontextprotocol/sdk; TypeScriptClientIT copies it into target/conformance).
// Prints one JSON line per step: {"initialize": …}, {"tools": [...]}, then {"tool", "arguments", "result"}
// for each call, then {"unplanned": [...]} naming listed tools this script has no call for.
// Arguments come from the demo's own answers (a table it ranks, a column of that table, a drafted metric),
// so the calls follow the catalog; a missing field throws (exit 1) rather than falling back to a guess.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { driveEveryTool, print } from './every-tool-calls.mjs';

const url = process.argv[2];
if (!url) {
  console.error('usage: node drive-every-tool.mjs http://127.0.0.1:PORT/mcp');
  process.exit(2);
}

const client = new Client({ name: 'ts-sdk-drive-every-tool', version: '1.0.0' });
const transport = new StreamableHTTPClientTransport(new URL(url));
await client.connect(transport);
print({
  initialize: {
    protocolVersion: transport.protocolVersion ?? null,
    serverInfo: client.getServerVersion(),
    capabilities: client.getServerCapabilities(),
  },
});

await driveEveryTool(client);
await transport.terminateSession().catch(() => {});
await client.close();
