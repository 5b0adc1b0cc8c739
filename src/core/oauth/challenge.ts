// WWW-Authenticate challenges of the resource server (RFC 6750 section 3, RFC 9728 section 5.1).

export type Challenge = {
  resourceMetadataUrl: string;
  error?: 'invalid_request' | 'invalid_token' | 'insufficient_scope' | null;
  /** Every scope the request needs, space-separated in the header. */
  scope?: readonly string[];
  description?: string;
};

const quote = (value: string): string => `"${value.replace(/["\\]/g, '')}"`;

export function bearerChallenge(c: Challenge): string {
  const parts = [`Bearer resource_metadata=${quote(c.resourceMetadataUrl)}`];
  if (c.scope && c.scope.length > 0) parts.push(`scope=${quote(c.scope.join(' '))}`);
  if (c.error) parts.push(`error=${quote(c.error)}`);
  if (c.description) parts.push(`error_description=${quote(c.description.replace(/[^\x20-\x7e]/g, ''))}`);
  return parts.join(', ');
}
