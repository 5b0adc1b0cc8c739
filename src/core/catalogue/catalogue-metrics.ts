// Figures for `npm run bench`: what tools/list costs an agent in each mode, and how well
// discovery search finds the right tool for tasks worded the way agents word them.
import type { ToolSettings } from '../executor/tool-settings';
import { globalRefusal } from './tool-filter';
import { CatalogueSearch, measureSearchAccuracy, type DiscoveryTask } from './discovery-search';
import { discoveryToolDefinitions } from './discovery-tools';
import type { SwaggerSpec } from './swagger-types';
import { buildCatalogue, rawToolDefinition } from './tool-catalogue';

export type ToolListSize = { tools: number; bytes: number; approxTokens: number };

/** Rough token estimate for JSON (about 4 characters per token). */
const tokens = (bytes: number) => Math.round(bytes / 4);

export function toolListSizes(
  spec: SwaggerSpec,
  tools: Pick<ToolSettings, 'disabledTools' | 'toolsets' | 'readOnly' | 'maxBinaryBytes'> = {
    disabledTools: [],
    toolsets: [],
    readOnly: false,
    maxBinaryBytes: 10 * 1024 * 1024,
  },
): { full: ToolListSize; discovery: ToolListSize } {
  const catalogue = buildCatalogue(spec, { maxBinaryBytes: tools.maxBinaryBytes });
  const full = [
    ...catalogue.operations.filter((op) => !globalRefusal(op, tools)).map((op) => op.tool),
    rawToolDefinition(),
  ];
  const discovery = [...discoveryToolDefinitions(), rawToolDefinition()];
  const size = (list: unknown[]) => Buffer.byteLength(JSON.stringify({ tools: list }));
  const fullBytes = size(full);
  const discoveryBytes = size(discovery);
  return {
    full: { tools: full.length, bytes: fullBytes, approxTokens: tokens(fullBytes) },
    discovery: { tools: discovery.length, bytes: discoveryBytes, approxTokens: tokens(discoveryBytes) },
  };
}

/** Top-k accuracy of discovery search on a task list (test/unit/catalogue/discovery-tasks.json). */
export function discoverySearchAccuracy(tasks: DiscoveryTask[], k: number, spec: SwaggerSpec) {
  const catalogue = buildCatalogue(spec, { maxBinaryBytes: 1 });
  return measureSearchAccuracy(new CatalogueSearch(catalogue.operations), tasks, k);
}
