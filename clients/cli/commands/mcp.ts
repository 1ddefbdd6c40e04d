import type { Cli } from '../context.ts';

export function registerMcpCommand(cli: Cli): void {
  cli.program
    .command('mcp')
    .description("Serve the marketplace's MCP tools over stdio (for agent hosts that launch a command)")
    .action(async () => {
      const { apiUrl, apiKey } = cli.settings();
      // Loaded only here: the MCP SDK is not needed by any other command.
      const { runStdioMcp } = await import('../../../src/mcp/stdio.ts');
      const mcp = await runStdioMcp({ baseUrl: apiUrl, apiKey: apiKey ?? null });
      // stdout is the protocol channel from here on: nothing else may print to it.
      await mcp.closed;
    });
}
