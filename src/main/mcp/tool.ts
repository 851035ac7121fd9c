import type { z } from 'zod';
import {
  contract,
  type MethodInput,
  type MethodName,
  type MethodOutput,
  type Role,
} from '../../shared/contract/index.js';

/**
 * How a tool reaches the management contract: over the admin API (`hookport mcp`) or in process
 * with the caller's role (`/mcp`). Either way the contract validates, checks the role and answers.
 */
export type ContractCall = <M extends MethodName>(
  name: M,
  input: MethodInput<M>,
) => Promise<MethodOutput<M>>;

/**
 * The contract for one MCP request: `gone` aborts when the client cancels it or disconnects, and
 * a slow read (a search's first count) is then stopped or never begun, as for an HTTP asker.
 */
export type ContractCallFor = (gone: AbortSignal) => ContractCall;

/** A field too large for a text part, handed out as a resource instead. */
export interface ResourceLink {
  uri: string;
  name: string;
  mimeType: string;
  size: number;
}

export interface ToolResult {
  structured: Record<string, unknown>;
  /** A few lines an agent can act on; the full answer is `structured`. */
  summary: string;
  links?: ResourceLink[];
}

export interface McpTool {
  name: string;
  title: string;
  /** What it returns, its limits and how to page: the agent reads only this. */
  description: string;
  /** The contract methods it calls; it needs the highest role they need. */
  methods: readonly MethodName[];
  /** Changes nothing (every read tool); the two write tools say so to the client. */
  readOnly: boolean;
  input: z.ZodObject;
  run(args: unknown, call: ContractCall): Promise<ToolResult>;
}

/** A tool whose handler sees its own parsed arguments; stored with them erased. */
export function defineTool<S extends z.ZodObject>(
  tool: Omit<McpTool, 'input' | 'run' | 'readOnly'> & {
    input: S;
    run(args: z.output<S>, call: ContractCall): Promise<ToolResult>;
  },
): McpTool {
  return {
    ...tool,
    readOnly: toolRole(tool) === 'view',
    run: (args, call) => tool.run(args as z.output<S>, call),
  };
}

export const toolRole = (tool: Pick<McpTool, 'methods'>): Role =>
  tool.methods.some((name) => contract[name].role === 'manage') ? 'manage' : 'view';
