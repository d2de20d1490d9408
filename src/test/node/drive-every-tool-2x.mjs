// Drives every tool of a SchemaBrain server with the TypeScript MCP SDK 2.x client (@modelcontextprotocol/client),
// which probes with server/discover and, offered 2026-07-28, speaks it: no initialize, no session.
// Usage: node drive-every-tool-2x.mjs http://127.0.0.1:PORT/mcp
//        node drive-every-tool-2x.mjs --stdio JAVA ARG...      (the server's command line)
// Prints {"negotiated": {protocolVersion, serverInfo, capabilities}}, the lines of every-tool-calls.mjs, then
// {"prompts": [...]} and {"prompt": …} (tell_me_about_a_domain for revenue).
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { driveEveryTool, print } from './every-tool-calls.mjs';

const [target, ...rest] = process.argv.slice(2);
if (!target) {
  console.error('usage: node drive-every-tool-2x.mjs URL | --stdio COMMAND ARG...');
  process.exit(2);
}
const transport = target === '--stdio'
  ? new StdioClientTransport({ command: rest[0], args: rest.slice(1), env: { ...process.env }, stderr: 'inherit' })
  : new StreamableHTTPClientTransport(new URL(target));
// 'auto': the SDK's probe, falling back to initialize unless the server answers discover as 2026-07-28 does.
const client = new Client({ name: 'ts-sdk2-drive-every-tool', version: '1.0.0' },
  { versionNegotiation: { mode: 'auto' } });
await client.connect(transport);
print({
  negotiated: {
    protocolVersion: client.getNegotiatedProtocolVersion() ?? null,
    serverInfo: client.getServerVersion() ?? null,
    capabilities: client.getServerCapabilities() ?? null,
  },
});
await driveEveryTool(client);
// The charter's workflows as prompts: listed, and one filled with its argument.
print({ prompts: (await client.listPrompts()).prompts });
print({ prompt: await client.getPrompt({ name: 'tell_me_about_a_domain', arguments: { domain: 'revenue' } }) });
await client.close();
