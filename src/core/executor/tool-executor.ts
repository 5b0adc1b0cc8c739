import type { ToolService, ToolServiceDeps, ToolServiceOptions } from './tool-service';

/** Builds the ToolService from a loaded swagger spec (see src/core/catalogue/spec-loader.ts). */
export function createToolService(spec: unknown, options: ToolServiceOptions, deps: ToolServiceDeps): ToolService {
  void spec;
  void options;
  void deps;
  throw new Error('not implemented yet');
}
