// The subset of Swagger 2.0 that the catalogue reads. Anything else in the document is ignored.
export type SwaggerSchema = { [key: string]: unknown };

export type SwaggerParameter = {
  name: string;
  in: 'path' | 'query' | 'body' | 'formData' | 'header';
  required?: boolean;
  type?: string;
  format?: string;
  description?: string;
  enum?: unknown[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  items?: SwaggerSchema;
  collectionFormat?: 'csv' | 'multi' | 'ssv' | 'tsv' | 'pipes';
  schema?: SwaggerSchema;
};

export type SwaggerResponse = {
  description?: string;
  schema?: SwaggerSchema;
  headers?: Record<string, SwaggerSchema>;
};

export type SwaggerOperation = {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  consumes?: string[];
  produces?: string[];
  parameters?: SwaggerParameter[];
  responses?: Record<string, SwaggerResponse>;
  deprecated?: boolean;
};

export type SwaggerSpec = {
  swagger: string;
  info?: { title?: string; version?: string };
  basePath?: string;
  consumes?: string[];
  produces?: string[];
  paths: Record<string, Record<string, SwaggerOperation>>;
  definitions?: Record<string, SwaggerSchema>;
  responses?: Record<string, SwaggerResponse>;
  parameters?: Record<string, SwaggerParameter>;
};

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
export type HttpMethodLower = (typeof HTTP_METHODS)[number];
