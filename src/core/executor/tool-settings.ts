// A leaf module (no imports), so the catalogue can name the settings without importing the executor.
/** The tool settings of the configuration (AppConfig['tools'] has this shape). */
export type ToolSettings = {
  specSource: string;
  toolsets: string[];
  mode: 'full' | 'discovery';
  readOnly: boolean;
  disabledTools: string[];
  allowSudo: boolean;
  maxResponseItems: number;
  maxResponseChars: number;
  maxBinaryBytes: number;
  /** MAX_TEXT_BODY_BYTES: how much of a text or JSON body is read (default 4 x maxResponseChars). */
  maxTextBodyBytes?: number;
};
